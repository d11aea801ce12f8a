/**
 * Sign-in, session and welcome-panel schemas (spec sections 3, 5 and 7), shared by the login form
 * and the API routes. Custom failures carry i18n message keys.
 */
import { z } from 'zod';

/** Longest accepted e-mail address (RFC 5321 path limit). */
export const MAIL_MAX_LENGTH = 254;
/** Longest accepted password; bounds the hashing work an anonymous caller can ask for. */
export const PASSWORD_MAX_LENGTH = 256;

/** POST /v1/login. A mail without '@' gets the primary company domain on the server. */
export const loginRequestSchema = z.strictObject({
  email: z.string().trim().min(1, 'login.mail.required').max(MAIL_MAX_LENGTH, 'error.invalid_value'),
  password: z.string().min(1, 'login.password.required').max(PASSWORD_MAX_LENGTH, 'error.invalid_value'),
  /** "Remember login on this computer": a longer-lived token. */
  remember: z.boolean().optional(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** A role as the session lists it (spec section 6: a role check matches id or name). */
export const roleRefSchema = z.object({ id: z.number().int(), name: z.string() });
export type RoleRefDto = z.infer<typeof roleRefSchema>;

/** resource -> allowed actions ('*' any; keys starting with '^' are regular expressions). */
export const aclSchema = z.record(z.string(), z.array(z.string()));

export const simulatedBySchema = z.object({ id: z.number().int(), mail: z.string(), name: z.string() });

/** The session (data of login, refresh and login/as). `exp` is the token expiry in seconds. */
export const sessionSchema = z.object({
  id: z.number().int(),
  mail: z.string(),
  name: z.string(),
  token: z.string().describe('Signed JWT (HS256); send as Authorization: Bearer <token>'),
  roles: z.array(roleRefSchema),
  acl: aclSchema,
  exp: z.number().int().describe('Token expiry, seconds since the epoch'),
  picture: z.string().nullable().describe('Avatar URL under /v1/staff/pic/'),
  simulated_by: simulatedBySchema.nullable().describe('The ADMIN simulating this user or role, if any'),
  simulated_role: roleRefSchema.nullable().describe('The role an ADMIN is simulating (its ACL is the session ACL), if any'),
});
export type Session = z.infer<typeof sessionSchema>;

/** POST /v1/login/as (ADMIN only). The simulation input takes at most 5 digits (spec section 5). */
export const SIMULATION_USER_ID_MAX_LENGTH = 5;
const simulationId = z.number().int().positive().max(2_147_483_647);
/** Exactly one of id_user (simulate that user) and id_role (simulate that role), like the simulator's two inputs. */
export const loginAsRequestSchema = z
  .strictObject({ id_user: simulationId.optional(), id_role: simulationId.optional() })
  .refine((v) => (v.id_user === undefined) !== (v.id_role === undefined), { message: 'error.required', path: ['id_user'] });
export type LoginAsRequest = z.infer<typeof loginAsRequestSchema>;

/** GET /v1/staff/welcome?mail=<one exact mail>. */
export const welcomeQuerySchema = z.strictObject({
  mail: z.string().trim().min(1, 'login.mail.required').max(MAIL_MAX_LENGTH, 'error.invalid_value'),
});

/** The welcome panel: the person's name, picture URL and optional greeting (null: show the default). */
export const welcomeEntrySchema = z.object({ name: z.string(), pic: z.string(), text: z.string().nullable() });
export type WelcomeEntry = z.infer<typeof welcomeEntrySchema>;

/** GET /v1/staff/pic/:id.svg */
export const staffPicParamsSchema = z.strictObject({
  id: z
    .string()
    .regex(/^\d{1,9}$/, 'error.not_found')
    .transform(Number),
});

/** GET /v1/admin/users/:id/sessions: a user's open sessions. */
export const sessionListItemSchema = z.object({
  id: z.string(),
  created_at: z.string().describe('UTC, ISO 8601'),
  expires_at: z.string().describe('UTC, ISO 8601'),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  remember: z.boolean(),
  simulated_by: z.object({ id: z.number().int(), mail: z.string() }).nullable(),
  simulated_role: roleRefSchema.nullable(),
});
export type SessionListItemDto = z.infer<typeof sessionListItemSchema>;

/** A session id in a path (random, URL-safe). */
export const sessionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'error.not_found');
