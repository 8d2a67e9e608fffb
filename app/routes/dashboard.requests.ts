import type { Route } from "./+types/dashboard.requests";
import { isMultipart, MultipartError } from "~/features/photos/multipart.server";
import { receiveRequestPhotos } from "~/features/photos/request-photos.server";
import {
  fieldsToFormData,
  parseServiceRequestForm,
} from "~/features/service-requests/form-data.server";
import { limitRequestCreation } from "~/features/service-requests/limits.server";
import type { RequestActionResult } from "~/features/service-requests/notices";
import { respond } from "~/features/service-requests/respond.server";
import {
  createServiceRequest,
  NoHomeError,
} from "~/features/service-requests/service-requests.server";
import { logger } from "~/lib/logger.server";
import { requireCustomerForAction } from "~/lib/session.server";

/**
 * Creates a service request ('How can we help'). Scripts post the fields and then upload each
 * photo with progress; a plain form posts everything at once as multipart, photos included.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireCustomerForAction(request);
  let outcome: Omit<RequestActionResult, "ok"> & { status?: number } = {
    notice: "create-failed",
    status: 500,
  };

  const create = async (formData: FormData) => {
    const parsed = parseServiceRequestForm(formData);
    if (!parsed.ok) {
      outcome = { notice: "create-failed", fieldErrors: parsed.fieldErrors, status: 400 };
      return null;
    }
    const limit = await limitRequestCreation(user.id);
    if (!limit.allowed) {
      logger.warn({ customerId: user.id }, "service request refused: hourly limit reached");
      outcome = { notice: "create-limited", status: 429 };
      return null;
    }
    try {
      const row = await createServiceRequest(user.id, parsed.value);
      outcome = { notice: "created", requestId: row.id, status: 201 };
      return row.id;
    } catch (error) {
      if (error instanceof NoHomeError) {
        outcome = { notice: "no-home", status: 409 };
      } else {
        logger.error({ err: (error as Error).message }, "creating a service request failed");
        outcome = { notice: "create-failed", status: 500 };
      }
      return null;
    }
  };

  try {
    if (isMultipart(request)) {
      await receiveRequestPhotos(request, (fields) => create(fieldsToFormData(fields)), user.id);
    } else {
      await create(await request.formData());
    }
  } catch (error) {
    // A broken upload after the request was made loses photos, not the request.
    if (outcome.notice !== "created") {
      const status = error instanceof MultipartError ? error.status : 400;
      outcome = { notice: "create-failed", status };
    }
    logger.warn({ err: (error as Error).message }, "service request form could not be read");
  }
  return respond(request, outcome.notice, outcome);
}
