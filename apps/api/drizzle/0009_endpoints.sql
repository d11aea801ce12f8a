CREATE TABLE "endpoints" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"side" text NOT NULL,
	"company_id" integer NOT NULL,
	"region" text NOT NULL,
	"url" text NOT NULL,
	"openrtb_version" text NOT NULL,
	"qps_cap" integer NOT NULL,
	"formats" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"token_hash" text NOT NULL,
	"token_hint" text NOT NULL,
	"token_rotated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "endpoints_name_idx" ON "endpoints" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "endpoints_token_hash_idx" ON "endpoints" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "endpoints_company_idx" ON "endpoints" USING btree ("company_id");--> statement-breakpoint
-- Tech (demand) reads endpoints and picks the company behind one: it reads companies.
UPDATE "roles" SET "acl" = "acl" || '{"/v1/companies": ["read"]}'::jsonb, "updated_at" = now()
 WHERE "name" IN ('TECH_DEMAND') AND NOT ("acl" ? '/v1/companies');
