import { eq } from "drizzle-orm";
import sharp from "sharp";
import { profiles } from "~/db/schema";
import { createAppointment } from "../../server/seed/factories";
import { BASE_URL } from "../support/ports";
import {
  createCustomer,
  createEmployee,
  e2eDb,
  expect,
  expectNoAxeViolations,
  signIn,
  test,
} from "./fixtures";
import { appointmentDate, businessDate, uniqueCustomer, uniqueWord } from "./employee-support";

function picture(width: number, height: number, format: "png" | "jpeg" = "png") {
  return sharp({ create: { width, height, channels: 3, background: "#2a7a6f" } })
    .toFormat(format)
    .toBuffer();
}

async function photoUrlOf(userId: string) {
  const [row] = await e2eDb()
    .select({ url: profiles.profilePhotoUrl })
    .from(profiles)
    .where(eq(profiles.userId, userId));
  return row.url;
}

test.describe("employee profile photo", () => {
  test("upload in Profile Settings, served publicly, shown on the customer's appointment card @phone", async ({
    page,
  }) => {
    const lastName = uniqueWord("Photo");
    const staff = await createEmployee({ firstName: "Quinn", lastName });
    await signIn(page, staff);
    await page.goto("/employee");
    await page.getByRole("button", { name: "Profile menu" }).click();
    await page.getByRole("menuitem", { name: "Profile" }).click();
    const settings = page.getByRole("dialog");
    await expect(settings.getByText("Manage your profile information and settings")).toBeVisible();
    await expect(settings.getByRole("heading", { name: "Profile Photo" })).toBeVisible();
    await expect(
      settings.getByText("Upload a professional photo that customers will see"),
    ).toBeVisible();
    // No photo yet: the first letter of the first name.
    await expect(settings.getByLabel("No profile photo yet")).toHaveText("Q");
    await expectNoAxeViolations(page);

    await page.route("**/employee/profile-photo", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    const chooser = page.waitForEvent("filechooser");
    await settings.getByRole("button", { name: "Upload Photo" }).click();
    await (
      await chooser
    ).setFiles({ name: "me.png", mimeType: "image/png", buffer: await picture(900, 600) });
    await expect(settings.getByRole("button", { name: "Uploading..." })).toBeVisible();
    await expect(page.getByText("Profile photo updated successfully")).toBeVisible();
    await expect(settings.getByRole("button", { name: "Change Photo" })).toBeVisible();
    await expect(settings.getByRole("img", { name: "Your profile photo" })).toBeVisible();

    // Stored as the user id plus 'profile.' plus the extension, and public.
    const url = await photoUrlOf(staff.id);
    expect(url).toMatch(new RegExp(`^/profile-photos/${staff.id}/profile\\.webp\\?v=\\w+$`));
    const served = await fetch(`${BASE_URL}${url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 320, 320]);

    // Customers see it on their appointment card.
    const customer = await uniqueCustomer();
    const day = businessDate(4);
    await createAppointment(
      e2eDb(),
      { id: customer.homeId, customerId: customer.id },
      {
        scheduledDate: day,
        startTime: "10:00",
        endTime: "11:00",
        assignedEmployeeId: staff.id,
        tasks: ["Fix the gate"],
      },
    );
    await page.context().clearCookies();
    await signIn(page, customer);
    await page.goto("/dashboard?tab=appointments");
    const card = page.getByRole("article", { name: appointmentDate(day) });
    await expect(card).toContainText(`Quinn ${lastName}`);
    await expect(card.locator(`img[src="${url}"]`)).toBeVisible();
  });

  test("images only, under 5MB: refused in the browser and on the server", async ({ page }) => {
    const staff = await createEmployee();
    await signIn(page, staff);
    await page.goto("/employee");
    await page.getByRole("button", { name: "Profile menu" }).click();
    await page.getByRole("menuitem", { name: "Profile" }).click();
    const settings = page.getByRole("dialog");
    const input = settings.getByLabel("Choose a profile photo");
    await expect(input).toHaveAttribute("accept", "image/*");

    await input.setInputFiles({
      name: "huge.png",
      mimeType: "image/png",
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 1),
    });
    await expect(page.getByText("Photo must be smaller than 5MB")).toBeVisible();
    await input.setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("not a picture"),
    });
    await expect(page.getByText("Please choose an image file")).toBeVisible();
    expect(await photoUrlOf(staff.id)).toBeNull();

    // Posting directly: the server applies the same rules.
    const headers = { origin: BASE_URL };
    const fake = await page.request.post("/employee/profile-photo", {
      multipart: {
        photo: { name: "fake.png", mimeType: "image/png", buffer: Buffer.from("<svg></svg>") },
      },
      headers,
    });
    expect(fake.status()).toBe(415);
    expect(await fake.json()).toMatchObject({ ok: false, message: "Failed to upload photo" });
    const big = await page.request.post("/employee/profile-photo", {
      multipart: {
        photo: {
          name: "big.jpg",
          mimeType: "image/jpeg",
          buffer: Buffer.concat([await picture(64, 64, "jpeg"), Buffer.alloc(5 * 1024 * 1024)]),
        },
      },
      headers,
    });
    expect(big.status()).toBe(413);
    expect(await big.json()).toMatchObject({ message: "Photo must be smaller than 5MB" });
    expect(await photoUrlOf(staff.id)).toBeNull();
  });

  test("customers and visitors cannot upload one", async ({ page }) => {
    const headers = { origin: BASE_URL };
    const body = {
      photo: { name: "me.png", mimeType: "image/png", buffer: await picture(100, 100) },
    };
    const visitor = await page.request.post("/employee/profile-photo", {
      multipart: body,
      headers,
    });
    expect(visitor.status()).toBe(401);
    const customer = await createCustomer();
    await signIn(page, customer);
    const refused = await page.request.post("/employee/profile-photo", {
      multipart: body,
      headers,
    });
    expect(refused.status()).toBe(403);
    expect(await photoUrlOf(customer.id)).toBeNull();
    // Nor is there a photo block for them: Profile Settings shows none to customers.
    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Profile menu" }).click();
    await page.getByRole("menuitem", { name: "Profile" }).click();
    await expect(
      page.getByRole("dialog").getByText("Manage your profile information"),
    ).toBeVisible();
    await expect(page.getByRole("dialog").getByText("Profile Photo")).toHaveCount(0);
  });
});
