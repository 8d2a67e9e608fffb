import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { type marked } from "~/components/ui/marked-field";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { SPECIALIST_TRADES, TRADE_LABELS, type SpecialistTrade } from "~/db/specialist-trade";
import { centsAsDecimal } from "~/lib/money";

export type SpecialistValues = {
  trade: SpecialistTrade;
  company: string;
  contactName: string | null;
  phone: string | null;
  email: string | null;
  licenseNumber: string | null;
  notes: string | null;
  referralFeeCents: number | null;
};

/**
 * The fields of 'Add specialist' and of each specialist's 'Save' (ids made unique by `prefix`),
 * each marked as `mark` says when its form was refused (ADR 093).
 */
export function SpecialistFields({
  prefix,
  values,
  mark,
}: {
  prefix: string;
  values?: SpecialistValues;
  mark: (name: string, id: string) => ReturnType<typeof marked>;
}) {
  const id = (name: string) => `${prefix}-${name}`;
  const chosenTrade = mark("trade", id("trade"));
  const company = mark("company", id("company"));
  const contactName = mark("contactName", id("contact"));
  const phone = mark("phone", id("phone"));
  const email = mark("email", id("email"));
  const licenseNumber = mark("licenseNumber", id("license"));
  const referralFee = mark("referralFee", id("fee"));
  const notes = mark("notes", id("notes"));
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div className="grid gap-1.5">
        <Label htmlFor={id("trade")}>Trade</Label>
        <NativeSelect
          id={id("trade")}
          name="trade"
          defaultValue={values?.trade ?? ""}
          required
          {...chosenTrade.props}
        >
          <option value="" disabled>
            Choose a trade
          </option>
          {SPECIALIST_TRADES.map((trade) => (
            <option key={trade} value={trade}>
              {TRADE_LABELS[trade]}
            </option>
          ))}
        </NativeSelect>
        {chosenTrade.message}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={id("company")}>Company</Label>
        <Input
          id={id("company")}
          name="company"
          defaultValue={values?.company}
          required
          maxLength={120}
          {...company.props}
        />
        {company.message}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={id("contact")}>Contact name</Label>
        <Input
          id={id("contact")}
          name="contactName"
          defaultValue={values?.contactName ?? ""}
          maxLength={120}
          {...contactName.props}
        />
        {contactName.message}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={id("phone")}>Phone</Label>
        <Input
          id={id("phone")}
          name="phone"
          type="tel"
          defaultValue={values?.phone ?? ""}
          maxLength={40}
          {...phone.props}
        />
        {phone.message}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={id("email")}>E-mail</Label>
        <Input
          id={id("email")}
          name="email"
          type="email"
          defaultValue={values?.email ?? ""}
          maxLength={254}
          {...email.props}
        />
        {email.message}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={id("license")}>License number</Label>
        <Input
          id={id("license")}
          name="licenseNumber"
          defaultValue={values?.licenseNumber ?? ""}
          maxLength={60}
          {...licenseNumber.props}
        />
        {licenseNumber.message}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={id("fee")}>Referral fee (USD, optional)</Label>
        <Input
          id={id("fee")}
          name="referralFee"
          inputMode="decimal"
          defaultValue={centsAsDecimal(values?.referralFeeCents ?? null)}
          maxLength={20}
          {...referralFee.props}
        />
        {referralFee.message}
      </div>
      <div className="grid gap-1.5 sm:col-span-2">
        <Label htmlFor={id("notes")}>Notes</Label>
        <Textarea
          id={id("notes")}
          name="notes"
          defaultValue={values?.notes ?? ""}
          maxLength={1000}
          {...notes.props}
        />
        {notes.message}
      </div>
    </div>
  );
}
