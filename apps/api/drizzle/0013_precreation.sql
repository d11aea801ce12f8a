CREATE TABLE "precreation" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"side" text NOT NULL,
	"target" text NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"company_id" integer,
	"contact_email" text,
	"notes" text,
	"seller_id" text,
	"seller_domain" text,
	"revenue_share_pct" numeric(5, 2) DEFAULT '0' NOT NULL,
	"partner_type" text DEFAULT 'DSP' NOT NULL,
	"endpoint_url" text,
	"qps_cap" integer DEFAULT 0 NOT NULL,
	"contract_signed" boolean DEFAULT false NOT NULL,
	"billing_info" boolean DEFAULT false NOT NULL,
	"ads_txt_verified" boolean DEFAULT false NOT NULL,
	"test_traffic" boolean DEFAULT false NOT NULL,
	"created_entity_id" integer,
	"reject_reason" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "precreation" ADD CONSTRAINT "precreation_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "precreation" ADD CONSTRAINT "precreation_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "precreation" ADD CONSTRAINT "precreation_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "precreation_side_state_idx" ON "precreation" USING btree ("side","state","updated_at");--> statement-breakpoint
CREATE INDEX "precreation_name_idx" ON "precreation" USING btree ("name","id");