CREATE TABLE "verifactu_submissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"record_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted" boolean NOT NULL,
	"csv" text,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "verifactu_submissions" ADD CONSTRAINT "verifactu_submissions_record_id_verifactu_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."verifactu_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verifactu_submissions_record_idx" ON "verifactu_submissions" USING btree ("record_id","id");