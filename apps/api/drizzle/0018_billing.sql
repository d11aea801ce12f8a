CREATE TABLE "billing_action_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"idem_key" text NOT NULL,
	"user_id" integer,
	"side" text NOT NULL,
	"action" text NOT NULL,
	"total" integer NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "billing_action_runs_idem_key_unique" UNIQUE("idem_key")
);
--> statement-breakpoint
CREATE TABLE "billing_nettings" (
	"id" serial PRIMARY KEY NOT NULL,
	"month" text NOT NULL,
	"company_id" integer NOT NULL,
	"currency" text NOT NULL,
	"receivable_row_ids" jsonb NOT NULL,
	"payable_row_ids" jsonb NOT NULL,
	"receivable" numeric(18, 2) NOT NULL,
	"payable" numeric(18, 2) NOT NULL,
	"net" numeric(18, 2) NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_by" integer,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "billing_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"row_id" integer NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"paid_on" date NOT NULL,
	"document_id" text,
	"reference" text DEFAULT '' NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"settles" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_rates" (
	"month" text NOT NULL,
	"currency" text NOT NULL,
	"rate" numeric(18, 6) NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_rates_month_currency_pk" PRIMARY KEY("month","currency")
);
--> statement-breakpoint
CREATE TABLE "billing_rows" (
	"id" serial PRIMARY KEY NOT NULL,
	"side" text NOT NULL,
	"kind" text NOT NULL,
	"month" text NOT NULL,
	"counterparty_type" text NOT NULL,
	"counterparty_id" integer NOT NULL,
	"product" text NOT NULL,
	"currency" text NOT NULL,
	"revenue_ours" numeric(18, 6) DEFAULT '0' NOT NULL,
	"other_side" numeric(18, 6) DEFAULT '0' NOT NULL,
	"revenue_network" numeric(18, 6),
	"carried_in" numeric(18, 6) DEFAULT '0' NOT NULL,
	"carried_from" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"revenue_gross" numeric(18, 2) GENERATED ALWAYS AS (round(coalesce(revenue_network, revenue_ours) + carried_in, 2)) STORED NOT NULL,
	"paid_revenue" numeric(18, 2) DEFAULT '0' NOT NULL,
	"received_payment_date" date,
	"document_id" text,
	"charged" boolean DEFAULT false NOT NULL,
	"min_amount" numeric(18, 2) DEFAULT '0' NOT NULL,
	"payment_terms" text DEFAULT 'net45' NOT NULL,
	"demand_partners" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"accumulated_into" integer,
	"netting_id" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_by" integer,
	"confirmed_at" timestamp with time zone,
	"approved_by" integer,
	"approved_at" timestamp with time zone,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "performance_daily" (
	"day" date NOT NULL,
	"advertiser_id" integer NOT NULL,
	"publisher_id" integer NOT NULL,
	"product" text NOT NULL,
	"impressions" bigint NOT NULL,
	"clicks" bigint NOT NULL,
	"conversions" bigint NOT NULL,
	"revenue_micros" bigint NOT NULL,
	"cost_micros" bigint NOT NULL,
	CONSTRAINT "performance_daily_day_advertiser_id_publisher_id_product_pk" PRIMARY KEY("day","advertiser_id","publisher_id","product")
);
--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "billing_mode" text DEFAULT 'credit' NOT NULL;--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "credit_limit" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "demand_partners" ADD COLUMN "billing_contacts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_action_runs" ADD CONSTRAINT "billing_action_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_nettings" ADD CONSTRAINT "billing_nettings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_nettings" ADD CONSTRAINT "billing_nettings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_nettings" ADD CONSTRAINT "billing_nettings_undone_by_users_id_fk" FOREIGN KEY ("undone_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_payments" ADD CONSTRAINT "billing_payments_row_id_billing_rows_id_fk" FOREIGN KEY ("row_id") REFERENCES "public"."billing_rows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_payments" ADD CONSTRAINT "billing_payments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_rates" ADD CONSTRAINT "billing_rates_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_rows" ADD CONSTRAINT "billing_rows_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_rows" ADD CONSTRAINT "billing_rows_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_rows" ADD CONSTRAINT "billing_rows_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_nettings_month_idx" ON "billing_nettings" USING btree ("month","company_id");--> statement-breakpoint
CREATE INDEX "billing_payments_row_idx" ON "billing_payments" USING btree ("row_id");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_rows_key_idx" ON "billing_rows" USING btree ("side","kind","month","counterparty_type","counterparty_id","product");--> statement-breakpoint
CREATE INDEX "billing_rows_list_idx" ON "billing_rows" USING btree ("side","kind","month","state");--> statement-breakpoint
CREATE INDEX "billing_rows_counterparty_idx" ON "billing_rows" USING btree ("counterparty_type","counterparty_id","month");--> statement-breakpoint
CREATE INDEX "billing_rows_document_idx" ON "billing_rows" USING btree ("document_id");