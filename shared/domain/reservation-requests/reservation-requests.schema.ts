import { z } from 'zod';

/**
 * Body of POST /api/v2/accept-reservation and /api/v2/decline-reservation (iGMS: the reservation
 * code of the request). Unknown keys are ignored.
 */
export const reservationAnswerBodySchema = z.object({
  reservation_code: z.string().trim().min(1, 'must not be empty').max(200),
});
export type ReservationAnswerBody = z.output<typeof reservationAnswerBodySchema>;

export const reservationAnswerSchema = z.object({ status: z.literal(0) });

/** What accept / decline / expire turn a pending request into. */
export type RequestOutcome = 'accepted' | 'declined' | 'expired';

/** Names one booking of the company: by its reservation code (airgms first) or its uid. */
export type BookingRef = { reservationCode: string } | { bookingUid: string };
