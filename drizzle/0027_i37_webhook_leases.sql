CREATE TABLE "webhook_leases" (
	"app_uid" text NOT NULL,
	"object_key" text NOT NULL,
	"holder" text NOT NULL,
	"until" timestamp with time zone NOT NULL,
	CONSTRAINT "webhook_leases_app_uid_object_key_pk" PRIMARY KEY("app_uid","object_key")
);
