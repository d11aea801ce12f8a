ALTER TABLE "sites" ADD COLUMN "ads_txt_status" text DEFAULT 'unchecked' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "ads_txt_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "ads_txt_detail" jsonb;