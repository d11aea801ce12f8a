CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"simulated_by" integer,
	"simulated_role_id" integer,
	"parent_id" text,
	"remember" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "simulated_role_id" integer;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_simulated_by_users_id_fk" FOREIGN KEY ("simulated_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_simulated_role_id_roles_id_fk" FOREIGN KEY ("simulated_role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id","expires_at");--> statement-breakpoint
CREATE INDEX "sessions_parent_idx" ON "sessions" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "sessions_simulated_by_idx" ON "sessions" USING btree ("simulated_by");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
-- A new password or a disabled account ends every session of the user, and every simulation the
-- user started, whoever makes the change (the user CLI today, the users screen tomorrow).
-- Re-enabling the account does not revive them.
CREATE FUNCTION "revoke_sessions_on_user_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  reason text;
BEGIN
  IF NEW.password_hash IS DISTINCT FROM OLD.password_hash THEN
    reason := 'password_changed';
  ELSIF OLD.active AND NOT NEW.active THEN
    reason := 'user_disabled';
  ELSE
    RETURN NEW;
  END IF;
  UPDATE sessions SET revoked_at = now(), revoked_reason = reason
   WHERE (user_id = NEW.id OR simulated_by = NEW.id) AND revoked_at IS NULL;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "users_revoke_sessions" AFTER UPDATE OF "password_hash", "active" ON "users"
  FOR EACH ROW EXECUTE FUNCTION "revoke_sessions_on_user_change"();
--> statement-breakpoint
-- Saving DataViewers and schedules now needs 'write' on /v1/reports/dataviewers (it needed 'read'
-- on /v1/reports). Roles that read reports keep what they could do; an ADMIN may take it away.
UPDATE "roles" SET "acl" = "acl" || '{"/v1/reports/dataviewers": ["read", "write"]}'::jsonb, "updated_at" = now()
 WHERE "acl" ? '/v1/reports' AND NOT ("acl" ? '/v1/reports/dataviewers') AND "name" <> 'SCHEDULER_ADMIN';
