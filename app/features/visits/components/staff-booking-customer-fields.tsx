import { useEffect, useMemo, useState } from "react";
import { href, useFetcher } from "react-router";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import type {
  CustomerChoice,
  CustomerHome,
  OpenRequestChoice,
} from "~/features/customers/index.server";
import type { AppointmentFields } from "./staff-booking-dialog";

/** "First Last", with the e-mail only where another customer has the same name. */
function customerLabel(customer: CustomerChoice) {
  return customer.sharedName ? `${customer.name} (${customer.email})` : customer.name;
}

type SearchResult = { ok: true; kind: "search"; customers: CustomerChoice[]; more: boolean };
type CustomerResult =
  | {
      ok: true;
      kind: "customer";
      homes: CustomerHome[];
      openRequests: OpenRequestChoice[];
      /** Her dedicated handyman: the default of 'Assign Employee' (ADR 088). */
      dedicatedHandymanId: string | null;
    }
  | { ok: false; message: string };

/**
 * The customer and property of the appointment: the search (a moment after typing stops), the
 * chosen customer's homes, open requests and dedicated handyman.
 */
export function useCustomerChoice() {
  const search = useFetcher<SearchResult>();
  const options = useFetcher<CustomerResult>();
  const [query, setQuery] = useState("");
  const [customerId, setCustomerId] = useState("");
  const [homeId, setHomeId] = useState("");
  const [picked, setPicked] = useState<CustomerChoice | null>(null);

  // The customer list follows what is typed, a moment after typing stops.
  const searchLoad = search.load;
  useEffect(() => {
    const timer = setTimeout(
      () => searchLoad(`${href("/employee/customer-options")}?q=${encodeURIComponent(query)}`),
      query ? 250 : 0,
    );
    return () => clearTimeout(timer);
  }, [query, searchLoad]);

  const optionsLoad = options.load;
  useEffect(() => {
    if (customerId)
      optionsLoad(
        `${href("/employee/customer-options")}?customerId=${encodeURIComponent(customerId)}`,
      );
  }, [customerId, optionsLoad]);

  const customerData =
    customerId && options.state === "idle" && options.data?.ok && options.data.kind === "customer"
      ? options.data
      : null;
  const homes = useMemo(() => customerData?.homes ?? [], [customerData]);

  // One home (the usual case): choose it. A different customer: forget the old choice.
  useEffect(() => {
    setHomeId((current) =>
      homes.some((home) => home.id === current) ? current : homes.length === 1 ? homes[0].id : "",
    );
  }, [homes]);

  const found = search.data?.ok ? search.data : null;
  const choices = useMemo(() => {
    const listed = found?.customers ?? [];
    // Keep the chosen customer selectable while the list shows other matches.
    return picked && !listed.some((c) => c.userId === picked.userId) ? [picked, ...listed] : listed;
  }, [found, picked]);

  return {
    query,
    setQuery,
    searchNow: () => searchLoad(`/employee/customer-options?q=${encodeURIComponent(query)}`),
    searching: search.state !== "idle",
    found,
    choices,
    customerId,
    chooseCustomer(value: string) {
      setCustomerId(value);
      setPicked(choices.find((c) => c.userId === value) ?? null);
    },
    homeId,
    setHomeId,
    homes,
    customerData,
    openRequests: customerData?.openRequests ?? [],
  };
}

export type CustomerChoiceState = ReturnType<typeof useCustomerChoice>;

export function CustomerAndPropertyFields({
  id,
  fields,
  customer,
  disabled,
}: {
  id: string;
  fields: AppointmentFields;
  customer: CustomerChoiceState;
  disabled: boolean;
}) {
  const { query, found, choices, homes, customerData } = customer;
  const placeError = fields.customerId.errors?.[0] ?? fields.homeId.errors?.[0];
  const placeErrorId = `${id}-place-error`;
  return (
    <fieldset
      className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4 sm:grid-cols-2"
      disabled={disabled}
    >
      <legend className="sr-only">Customer and property</legend>
      {/* The first customers by name are listed; the search asks the server for others.
          Its label avoids the word "customer", so "Select Customer" stays the one field
          a person (or a test) finds by that word. */}
      <div className="grid gap-1.5 sm:col-span-2">
        <Label htmlFor={`${id}-find`}>Find by name, e-mail or phone</Label>
        <Input
          id={`${id}-find`}
          type="search"
          value={query}
          onChange={(event) => customer.setQuery(event.target.value)}
          onKeyDown={(event) => {
            // Enter searches now; it must not submit the appointment form.
            if (event.key === "Enter") {
              event.preventDefault();
              customer.searchNow();
            }
          }}
          maxLength={100}
          autoComplete="off"
          aria-describedby={`${id}-find-hint`}
        />
        <p id={`${id}-find-hint`} className="text-xs text-muted-foreground" aria-live="polite">
          {customer.searching || !found
            ? "Searching..."
            : found.more
              ? query.trim()
                ? `Showing the first ${found.customers.length} matches by name. Type more to narrow them.`
                : `Showing the first ${found.customers.length} customers by name. Search to find others.`
              : `${found.customers.length} ${
                  found.customers.length === 1 ? "customer" : "customers"
                }${query.trim() ? " found" : ""}, listed by name`}
        </p>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={fields.customerId.id}>Select Customer</Label>
        <NativeSelect
          id={fields.customerId.id}
          name={fields.customerId.name}
          value={customer.customerId}
          onChange={(event) => customer.chooseCustomer(event.target.value)}
          aria-invalid={placeError ? true : undefined}
          aria-describedby={placeError ? placeErrorId : undefined}
        >
          <NativeSelectOption value="">Choose a customer</NativeSelectOption>
          {choices.map((choice) => (
            <NativeSelectOption key={choice.userId} value={choice.userId}>
              {customerLabel(choice)}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </div>
      {homes.length > 0 ? (
        <div className="grid gap-1.5">
          <Label htmlFor={fields.homeId.id}>Select Property</Label>
          <NativeSelect
            id={fields.homeId.id}
            name={fields.homeId.name}
            value={customer.homeId}
            onChange={(event) => customer.setHomeId(event.target.value)}
            aria-invalid={placeError ? true : undefined}
            aria-describedby={placeError ? placeErrorId : undefined}
          >
            <NativeSelectOption value="">Choose a property</NativeSelectOption>
            {homes.map((home) => (
              <NativeSelectOption key={home.id} value={home.id}>
                {home.address}, {home.city}, {home.state} {home.zipCode}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
      ) : customerData ? (
        <p className="self-end text-sm text-muted-foreground">
          This customer has no property on file yet.
        </p>
      ) : null}
      {placeError && (
        <p id={placeErrorId} role="alert" className="text-sm text-destructive sm:col-span-2">
          {placeError}
        </p>
      )}
    </fieldset>
  );
}
