import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";

/*
 * Property tests over every form schema: app/lib/validation.ts and every feature's schema
 * module (found by file name, so a new one is covered without touching this file). Random and
 * hostile input (very long strings, control characters, markup, wrong types, missing fields):
 * a schema never throws, every rejection carries a message a person can read (never a Zod
 * default such as "Invalid input: expected string, received number"), and what it accepts is
 * storable: bounded in length and free of NUL characters, which PostgreSQL refuses.
 */

const modules = import.meta.glob<Record<string, unknown>>(
  ["/app/lib/validation.ts", "/app/features/**/schema.ts", "/app/features/**/*-schema.ts"],
  { eager: true },
);

const TODAY = "2026-11-22";

type Named = { name: string; schema: z.ZodType };

function collectSchemas(): Named[] {
  const found: Named[] = [];
  for (const [file, exports] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(exports)) {
      if (value instanceof z.ZodType) found.push({ name: `${file}: ${name}`, schema: value });
      // Schemas that depend on the day (the appointment form) are built by a factory.
      else if (typeof value === "function" && /^create\w*Schema$/.test(name)) {
        const schema = (value as (today: string) => unknown)(TODAY);
        if (schema instanceof z.ZodType) found.push({ name: `${file}: ${name}()`, schema });
      }
    }
  }
  return found;
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  in?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The field names a schema reads (objects, through pipes, defaults and unions). */
function fieldsOf(schema: z.ZodType): string[] {
  const def = defOf(schema);
  if (def.type === "object" && def.shape) return Object.keys(def.shape);
  if (def.type === "pipe" && def.in) return fieldsOf(def.in);
  if ((def.type === "default" || def.type === "optional") && def.innerType)
    return fieldsOf(def.innerType);
  if (def.type === "union" && def.options) return [...new Set(def.options.flatMap(fieldsOf))];
  return [];
}

/* ---------------- hostile input ---------------- */

const CONTROL = fc
  .array(fc.integer({ min: 0, max: 31 }), { minLength: 1, maxLength: 8 })
  .map((codes) => String.fromCharCode(...codes));
const MARKUP = fc.constantFrom(
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "' OR 1=1 --",
  "Robert'); DROP TABLE leads;--",
  "{{7*7}}",
  "${process.env.AUTH_SECRET}",
  "../../etc/passwd",
  "\u202Eevil\u202C",
  "\uFEFF",
  "𝕳𝖆𝖓𝖉𝖞 🛠️",
  "\u0000",
);
const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  CONTROL,
  MARKUP,
  fc.tuple(fc.string({ maxLength: 10 }), MARKUP, CONTROL).map((parts) => parts.join("")),
  fc.integer({ min: 255, max: 300_000 }).map((n) => "a".repeat(n)),
  fc.emailAddress(),
  fc.constantFrom("", " ", "   \t\n ", "next", "later", "new", "complete", "sign-in"),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.uuid(),
);
const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), hostileString, { maxKeys: 3 }),
);
const anyValue = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 1, arbitrary: wrongType },
);

/** An object with some of the schema's fields (any value, any type), some missing, extra keys. */
function hostileObject(fields: string[]) {
  const field = fc.option(anyValue, { nil: undefined, freq: 4 });
  return fc
    .tuple(
      fc.record(Object.fromEntries(fields.map((name) => [name, field])), {
        requiredKeys: [],
      }),
      fc.dictionary(fc.constantFrom("isEmployee", "__proto__x", "role", "customerId"), anyValue, {
        maxKeys: 2,
      }),
    )
    .map(([known, extra]) => ({ ...extra, ...known }));
}

/* ---------------- what a good answer looks like ---------------- */

const ZOD_DEFAULT =
  /^(Invalid input|Invalid option|Invalid string|Invalid element|Invalid discriminator|Too small:|Too big:|Unrecognized key|Expected |Required$)/;

/**
 * Messages a person would not understand. `intent` is the hidden field that picks the form: no
 * person types it, and the routes answer an unknown one themselves (tests/e2e/hostile-input).
 */
function unclearMessages(error: z.ZodError) {
  return error.issues
    .filter((issue) => issue.path[0] !== "intent")
    .map((issue) => issue.message)
    .filter((message) => !message || message.length > 200 || ZOD_DEFAULT.test(message));
}

/**
 * Strings of an accepted value that could not be stored or should not be. Passwords are checked
 * against a hash, never stored; their length is Better Auth's business (128 at sign-up).
 */
function unstorable(value: unknown, path = "value"): string[] {
  if (typeof value === "string") {
    const problems: string[] = [];
    if (value.includes("\u0000") && !/password$/i.test(path)) problems.push(`${path} contains NUL`);
    if (value.length > 10_000 && !/password$/i.test(path))
      problems.push(`${path} is ${value.length} characters long`);
    return problems;
  }
  if (value instanceof Date && Number.isNaN(value.getTime())) return [`${path} is an invalid date`];
  if (Array.isArray(value)) return value.flatMap((v, i) => unstorable(v, `${path}[${i}]`));
  if (value && typeof value === "object" && !(value instanceof Date))
    return Object.entries(value).flatMap(([k, v]) => unstorable(v, `${path}.${k}`));
  return [];
}

const schemas = collectSchemas();

/*
 * A valid submission of each form. Random objects are nearly always rejected somewhere, so the
 * "accepted values are storable" property is also checked on these with one field made hostile:
 * a NUL in an otherwise perfect form is the case that used to reach the database.
 */
const HOME = "0b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d";
const VALID: Record<string, Record<string, unknown>> = {
  applianceSchema: {
    type: "water_heater",
    brand: "Rheem",
    model: "XG50T06EC36U1",
    serialNumber: "Q121912345",
    installed: "2019",
    warrantyEndsOn: "2027-03-01",
    location: "Garage",
    filterSize: "",
    notes: "Gas, 50 gallons",
  },
  specialistSchema: {
    trade: "plumber",
    company: "Peach State Plumbing",
    contactName: "Ray Ellis",
    phone: "(404) 555-0199",
    email: "ray@peachstateplumbing.example",
    licenseNumber: "MP-1234",
    notes: "Gas lines too",
    referralFee: "$25",
  },
  referralSchema: {
    specialistId: "0f8c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f",
    reason: "The new water heater needs a gas line",
  },
  referralStatusSchema: {
    referralId: "0f8c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f",
    status: "contacted",
  },
  planTaskSchema: {
    title: "Change the HVAC filter",
    months: ["1", "4", "7", "10"],
    estimatedMinutes: "15",
  },
  signUpSchema: {
    intent: "sign-up",
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    password: "Sturdy-Pass-2026!",
    mobilePhone: "(404) 555-0181",
    textMe: "on",
  },
  notificationsSchema: {
    intent: "save-notifications",
    mobilePhone: "404-555-0181",
    textMe: "on",
    "reminders-email": "on",
    "reminders-text": "on",
    "visit-changes-email": "on",
    "billing-text": "on",
  },
  signInSchema: { intent: "sign-in", email: "ada@example.com", password: "anything" },
  forgotPasswordSchema: { intent: "forgot", email: "ada@example.com" },
  resendConfirmationSchema: { intent: "resend-confirmation", email: "ada@example.com" },
  resetPasswordSchema: { intent: "reset-password", token: "abc123", password: "Sturdy-Pass-2026!" },
  twoFactorCodeSchema: { intent: "verify-totp", code: "123456" },
  textCodeRequestSchema: {
    intent: "send-sign-in-code",
    mobilePhone: "(404) 555-0181",
    key: "AbCdEfGhIjKlMnOpQr",
  },
  textCodeSchema: { intent: "verify-sign-in-code", code: "123456" },
  homeSchema: {
    address: "1 Peachtree St",
    city: "Atlanta",
    state: "GA",
    zipCode: "30303",
    propertyNotes: "Gate code 1234\n\tDog in the yard",
  },
  profileSchema: { firstName: "Ada", lastName: "Lovelace", phone: "404 555 0100" },
  passwordConfirmSchema: { password: "anything" },
  "createAppointmentSchema()": {
    customerId: "customer-1",
    homeId: HOME,
    assignedEmployeeId: "employee-1",
    scheduledDate: TODAY,
    startTime: "09:00",
    endTime: "10:00",
    tasks: [{ description: "Fix the door", serviceRequestId: HOME }],
    notes: "Bring a ladder",
  },
  updateStatusSchema: { intent: "status", status: "reviewed" },
  updateNotesSchema: { intent: "notes", notes: "Called back.\r\n\tNeeds parts" },
  bookingSchema: {
    name: "Ada Lovelace",
    email: "ada@example.com",
    phone: "(404) 555-0100",
    startsAt: "2026-11-23T15:00:00.000Z",
  },
  homeLeadSchema: { name: "Ada Lovelace", zipCode: "30303", email: "ada@example.com" },
  cityLeadSchema: {
    name: "Ada Lovelace",
    phone: "404-555-0100",
    email: "ada@example.com",
    message: "Two doors stick.\n\tThanks",
  },
  serviceRequestSchema: {
    title: "Door sticks",
    description: "Front door\n\tsticks",
    priority: "next",
  },
  "createStartMembershipSchema()": { plan: "complete", billing: "monthly", startDate: TODAY },
  paymentSchema: { amount: "$1,234.50", method: "check", reference: "Check 1042" },
  completeVisitSchema: { appointmentId: HOME, minutesWorked: "90" },
  correctTimeSchema: { appointmentId: HOME, minutesWorked: "90", reason: "Receipt shows 1 h 30" },
  partSchema: { appointmentId: HOME, description: "Faucet cartridge", cost: "$42.10" },
  partIdSchema: { partId: HOME },
  correctPartSchema: { partId: HOME, description: "Gate hinge", cost: "24.50" },
};

const baseName = (name: string) => name.slice(name.lastIndexOf(": ") + 2);

/** A path to every string of a valid form (tasks' fields included). */
function stringPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === "string") return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringPaths(item, [...path, i]));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => stringPaths(item, [...path, key]));
  return [];
}

function withValueAt(base: unknown, path: (string | number)[], value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  const copy = (Array.isArray(base) ? [...base] : { ...(base as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = withValueAt(copy[head], rest, value);
  return copy;
}

/** Strings on which a backtracking pattern could take seconds (an e-mail "a@a.a.a.…@"). */
const PATHOLOGICAL = [
  `a@${"a.".repeat(150_000)}@`,
  `${"a".repeat(150_000)}@`,
  `${"1".repeat(150_000)}x`,
  `${"a-".repeat(150_000)}!`,
  `${" \t".repeat(150_000)}x`,
];

describe("every form schema under random and hostile input", () => {
  it("finds the schemas of validation.ts and of every feature", () => {
    const names = schemas.map((s) => s.name).join("\n");
    for (const expected of [
      "nameSchema",
      "emailSchema",
      "newPasswordSchema",
      "signUpSchema",
      "homeSchema",
      "serviceRequestSchema",
      "homeLeadSchema",
      "cityLeadSchema",
      "bookingSchema",
      "createAppointmentSchema()",
      "updateNotesSchema",
    ]) {
      expect(names).toContain(expected);
    }
  });

  for (const { name, schema } of schemas) {
    it(`${name}: never throws, rejects clearly, accepts only what can be stored`, () => {
      const fields = fieldsOf(schema);
      // A form always arrives as an object of fields; a single field's schema, as any value.
      const input = fields.length ? hostileObject(fields) : anyValue;
      fc.assert(
        fc.property(input, (value) => {
          let result: ReturnType<typeof schema.safeParse>;
          try {
            result = schema.safeParse(value);
          } catch (error) {
            throw new Error(`threw ${(error as Error).message} for ${JSON.stringify(value)}`);
          }
          if (!result.success) {
            expect(unclearMessages(result.error), JSON.stringify(result.error.issues)).toEqual([]);
          } else {
            // A lone password field's value is a password too.
            const path = !fields.length && /password/i.test(name) ? "password" : "value";
            expect(unstorable(result.data, path)).toEqual([]);
          }
        }),
        { numRuns: 300 },
      );
    });
  }

  it("has a valid sample of every form schema, accepted as it is", () => {
    for (const { name, schema } of schemas) {
      const sample = VALID[baseName(name)];
      if (!fieldsOf(schema).length) continue;
      expect(sample, `VALID has no sample for ${name}`).toBeDefined();
      const result = schema.safeParse(sample);
      expect(result.success, `${name}: ${JSON.stringify(result.error?.issues)}`).toBe(true);
    }
  });

  for (const { name, schema } of schemas) {
    const sample = VALID[baseName(name)];
    if (!sample) continue;
    it(`${name}: a valid form with one hostile field is rejected clearly or stored safely`, () => {
      const paths = stringPaths(sample);
      fc.assert(
        fc.property(fc.constantFrom(...paths), anyValue, (path, value) => {
          const input = withValueAt(sample, path, value);
          const result = schema.safeParse(input);
          if (!result.success) {
            expect(unclearMessages(result.error), JSON.stringify(result.error.issues)).toEqual([]);
          } else {
            expect(unstorable(result.data), JSON.stringify(input)).toEqual([]);
          }
        }),
        { numRuns: 400 },
      );
    });
  }

  /*
   * A pattern with more than one unbounded quantifier (the e-mail pattern's "[^\\s@]+\\.[^\\s@]+")
   * can backtrack for seconds on input made for it, so it must only ever see bounded input: the
   * length cap comes first and stops the check. Watching which patterns run on which lengths
   * proves that without timing anything.
   */
  /** "+", "*" and "{n,}" in a pattern's source, counted without running a pattern. */
  function unboundedQuantifiers(source: string) {
    let count = 0;
    for (let i = 0; i < source.length; i++) {
      const c = source[i];
      if (c === "\\") i++;
      else if (c === "+" || c === "*") count++;
      else if (c === "," && source[i + 1] === "}") count++;
    }
    return count;
  }

  it("never runs a backtracking pattern on unbounded input", () => {
    const exposed = new Set<string>();
    const original = RegExp.prototype.exec;
    const MAX_SAFE_LENGTH = 1000;
    RegExp.prototype.exec = function (this: RegExp, input: string) {
      if (unboundedQuantifiers(this.source) > 1 && String(input).length > MAX_SAFE_LENGTH)
        exposed.add(`/${this.source}/`);
      return original.call(this, input);
    };
    try {
      for (const { name, schema } of schemas) {
        const sample = VALID[baseName(name)];
        const paths = sample ? stringPaths(sample) : [[]];
        for (const path of paths) {
          for (const text of PATHOLOGICAL) {
            const before = exposed.size;
            schema.safeParse(withValueAt(sample, path, text));
            if (exposed.size > before) exposed.add(`${name} ${path.join(".") || "(value)"}`);
          }
        }
      }
    } finally {
      RegExp.prototype.exec = original;
    }
    expect([...exposed]).toEqual([]);
  });
});
