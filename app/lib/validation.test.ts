import { describe, expect, it } from "vitest";
import { nameSchema, tidyName } from "./validation";

/** ADR 020: names are kept as people write them; the spec's messages stay. */
describe("nameSchema", () => {
  const accepted: [string, string][] = [
    ["O'Brien", "O'Brien"],
    ["D’Arcy", "D’Arcy"],
    ["Siobhán Nuñez-García", "Siobhán Nuñez-García"],
    ["Martin Luther King Jr.", "Martin Luther King Jr."],
    ["  Mary   Ann  ", "Mary Ann"],
    ["Ngũgĩ wa Thiong’o", "Ngũgĩ wa Thiong’o"],
    ["李小龍", "李小龍"],
    ["Ольга", "Ольга"],
    ["محمد", "محمد"],
    ["Hawaiʻi Kealoha", "Hawaiʻi Kealoha"],
    // Decomposed accents (e + combining acute) are stored composed.
    ["Rene\u0301e", "Renée"],
    ["M".repeat(50), "M".repeat(50)],
  ];
  for (const [input, stored] of accepted) {
    it(`keeps ${JSON.stringify(input)} as ${JSON.stringify(stored)}`, () => {
      expect(nameSchema.safeParse(input)).toEqual({ success: true, data: stored });
    });
  }

  const refused: [unknown, string][] = [
    [undefined, "Name is required"],
    ["", "Name is required"],
    ["   ", "Name is required"],
    ["J", "Name must be at least 2 characters"],
    ["M".repeat(51), "Name must be less than 50 characters"],
    ["R2D2", "Name contains invalid characters"],
    ["<b>Jo</b>", "Name contains invalid characters"],
    ['Jo "JJ" Smith', "Name contains invalid characters"],
    ["Tom & Jerry", "Name contains invalid characters"],
    ["Casey\u0000Member", "Name contains invalid characters"],
    ["Jo_Smith", "Name contains invalid characters"],
    ["'.-", "Name contains invalid characters"],
    ["Jo 😀", "Name contains invalid characters"],
  ];
  for (const [input, message] of refused) {
    it(`refuses ${JSON.stringify(input)}: ${message}`, () => {
      const result = nameSchema.safeParse(input);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0].message).toBe(message);
    });
  }

  it("tidies spaces and composes accents without removing anything", () => {
    expect(tidyName(" O'Brien \t Jr. ")).toBe("O'Brien Jr.");
    expect(tidyName("<b>")).toBe("<b>");
  });
});
