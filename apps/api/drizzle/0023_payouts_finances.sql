CREATE TABLE "finance_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"team" text NOT NULL,
	"counterparty_id" integer NOT NULL,
	"network_id" integer NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"currency" text NOT NULL,
	"item" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"send_email" boolean NOT NULL,
	"email_status" text DEFAULT 'not_requested' NOT NULL,
	"email_to" text,
	"email_sent_at" timestamp with time zone,
	"email_error" text,
	"email_message_id" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_verifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"action" text NOT NULL,
	"payout_ids" jsonb NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"side" text NOT NULL,
	"month" text NOT NULL,
	"publisher_id" integer NOT NULL,
	"currency" text NOT NULL,
	"rate" numeric(18, 6) DEFAULT '1' NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL,
	"revenue_gross" numeric(18, 2) DEFAULT '0' NOT NULL,
	"new_revenue" numeric(18, 2) DEFAULT '0' NOT NULL,
	"carried_in" numeric(18, 2) DEFAULT '0' NOT NULL,
	"carried_from" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"adjustment" numeric(18, 2) DEFAULT '0' NOT NULL,
	"payout" numeric(18, 2) GENERATED ALWAYS AS (new_revenue + carried_in + adjustment) STORED NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"share_pct" numeric(5, 2) DEFAULT '0' NOT NULL,
	"min_payout" numeric(11, 2) DEFAULT '0' NOT NULL,
	"payment_terms" text DEFAULT 'net45' NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"carried_into" integer,
	"comments" text DEFAULT '' NOT NULL,
	"held_reason" text,
	"paid_on" date,
	"bank_reference" text,
	"sepa_message_id" text,
	"version" integer DEFAULT 1 NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_by" integer,
	"confirmed_at" timestamp with time zone,
	"approved_by" integer,
	"approved_at" timestamp with time zone,
	"paid_by" integer,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prepayment_accounts" (
	"advertiser_id" integer PRIMARY KEY NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"low_balance_threshold" numeric(18, 2) DEFAULT '0' NOT NULL,
	"spend_posted_through" date,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prepayment_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"advertiser_id" integer NOT NULL,
	"entry_date" date NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"currency" text NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"reverses_id" bigint,
	"source" text DEFAULT 'manual' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "finance_entries" ADD CONSTRAINT "finance_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_entries" ADD CONSTRAINT "finance_entries_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_verifications" ADD CONSTRAINT "payout_verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_paid_by_users_id_fk" FOREIGN KEY ("paid_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prepayment_accounts" ADD CONSTRAINT "prepayment_accounts_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prepayment_entries" ADD CONSTRAINT "prepayment_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "finance_entries_list_idx" ON "finance_entries" USING btree ("team","period_start","id");--> statement-breakpoint
CREATE INDEX "finance_entries_counterparty_idx" ON "finance_entries" USING btree ("team","counterparty_id");--> statement-breakpoint
CREATE INDEX "payout_verifications_user_idx" ON "payout_verifications" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_key_idx" ON "payouts" USING btree ("side","month","publisher_id");--> statement-breakpoint
CREATE INDEX "payouts_list_idx" ON "payouts" USING btree ("side","month","state","id");--> statement-breakpoint
CREATE INDEX "payouts_publisher_idx" ON "payouts" USING btree ("publisher_id","month");--> statement-breakpoint
CREATE INDEX "prepayment_entries_ledger_idx" ON "prepayment_entries" USING btree ("advertiser_id","entry_date","id");--> statement-breakpoint
CREATE UNIQUE INDEX "prepayment_entries_reverses_idx" ON "prepayment_entries" USING btree ("reverses_id");--> statement-breakpoint
CREATE UNIQUE INDEX "prepayment_entries_spend_day_idx" ON "prepayment_entries" USING btree ("advertiser_id","entry_date") WHERE kind = 'spend';--> statement-breakpoint
CREATE FUNCTION "prepayment_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'prepayment_entries is append-only: a wrong entry is reversed by another';
END
$$;--> statement-breakpoint
CREATE TRIGGER "prepayment_entries_no_change" BEFORE UPDATE OR DELETE ON "prepayment_entries" FOR EACH ROW EXECUTE FUNCTION "prepayment_entries_append_only"();
