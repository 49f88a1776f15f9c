-- +goose Up
-- create "webhook_endpoints" table
CREATE TABLE "webhook_endpoints" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "url" character varying NOT NULL, "description" character varying NOT NULL DEFAULT '', "event_types" jsonb NOT NULL, "is_active" boolean NOT NULL DEFAULT true, "secret_encrypted" bytea NOT NULL, "previous_secret_encrypted" bytea NULL, "previous_secret_expires_at" timestamptz NULL, "failure_count" bigint NOT NULL DEFAULT 0, "failing_since" timestamptz NULL, "disabled_at" timestamptz NULL, "disabled_reason" character varying NULL, "created_by" uuid NULL, "tenant_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "webhook_endpoints_tenants_tenant" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- create index "webhookendpoint_tenant_id" to table: "webhook_endpoints"
CREATE INDEX "webhookendpoint_tenant_id" ON "webhook_endpoints" ("tenant_id");
-- create index "webhookendpoint_tenant_id_created_at_id" to table: "webhook_endpoints"
CREATE INDEX "webhookendpoint_tenant_id_created_at_id" ON "webhook_endpoints" ("tenant_id", "created_at", "id");
-- create "webhook_events" table
CREATE TABLE "webhook_events" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "type" character varying NOT NULL, "payload" text NOT NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create index "webhookevent_created_at_id" to table: "webhook_events"
CREATE INDEX "webhookevent_created_at_id" ON "webhook_events" ("created_at", "id");
-- create "webhook_deliveries" table
CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "event_type" character varying NOT NULL, "status" character varying NOT NULL DEFAULT 'PENDING', "attempts" bigint NOT NULL DEFAULT 0, "next_attempt_at" timestamptz NOT NULL, "last_attempt_at" timestamptz NULL, "last_status_code" bigint NULL, "last_error" character varying NULL, "replay_of" uuid NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "endpoint_id" uuid NOT NULL, "event_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "webhook_deliveries_webhook_endpoints_endpoint" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "webhook_deliveries_webhook_events_event" FOREIGN KEY ("event_id") REFERENCES "webhook_events" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- create index "webhookdelivery_event_id" to table: "webhook_deliveries"
CREATE INDEX "webhookdelivery_event_id" ON "webhook_deliveries" ("event_id");
-- create index "webhookdelivery_next_attempt_at" to table: "webhook_deliveries"
CREATE INDEX "webhookdelivery_next_attempt_at" ON "webhook_deliveries" ("next_attempt_at") WHERE ((status)::text = 'PENDING'::text);
-- create index "webhookdelivery_tenant_id_created_at_id" to table: "webhook_deliveries"
CREATE INDEX "webhookdelivery_tenant_id_created_at_id" ON "webhook_deliveries" ("tenant_id", "created_at", "id");
-- create index "webhookdelivery_tenant_id_endpoint_id_created_at_id" to table: "webhook_deliveries"
CREATE INDEX "webhookdelivery_tenant_id_endpoint_id_created_at_id" ON "webhook_deliveries" ("tenant_id", "endpoint_id", "created_at", "id");
-- create "webhook_attempts" table
CREATE TABLE "webhook_attempts" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "number" bigint NOT NULL, "attempted_at" timestamptz NOT NULL, "latency_ms" bigint NOT NULL, "status_code" bigint NULL, "error" character varying NULL, "response_body" character varying NOT NULL DEFAULT '', "delivery_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "webhook_attempts_webhook_deliveries_delivery" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries" ("id") ON UPDATE NO ACTION ON DELETE CASCADE);
-- create index "webhookattempt_delivery_id_number" to table: "webhook_attempts"
CREATE INDEX "webhookattempt_delivery_id_number" ON "webhook_attempts" ("delivery_id", "number");

-- +goose Down
-- reverse: create index "webhookattempt_delivery_id_number" to table: "webhook_attempts"
DROP INDEX "webhookattempt_delivery_id_number";
-- reverse: create "webhook_attempts" table
DROP TABLE "webhook_attempts";
-- reverse: create index "webhookdelivery_tenant_id_endpoint_id_created_at_id" to table: "webhook_deliveries"
DROP INDEX "webhookdelivery_tenant_id_endpoint_id_created_at_id";
-- reverse: create index "webhookdelivery_tenant_id_created_at_id" to table: "webhook_deliveries"
DROP INDEX "webhookdelivery_tenant_id_created_at_id";
-- reverse: create index "webhookdelivery_next_attempt_at" to table: "webhook_deliveries"
DROP INDEX "webhookdelivery_next_attempt_at";
-- reverse: create index "webhookdelivery_event_id" to table: "webhook_deliveries"
DROP INDEX "webhookdelivery_event_id";
-- reverse: create "webhook_deliveries" table
DROP TABLE "webhook_deliveries";
-- reverse: create index "webhookevent_created_at_id" to table: "webhook_events"
DROP INDEX "webhookevent_created_at_id";
-- reverse: create "webhook_events" table
DROP TABLE "webhook_events";
-- reverse: create index "webhookendpoint_tenant_id_created_at_id" to table: "webhook_endpoints"
DROP INDEX "webhookendpoint_tenant_id_created_at_id";
-- reverse: create index "webhookendpoint_tenant_id" to table: "webhook_endpoints"
DROP INDEX "webhookendpoint_tenant_id";
-- reverse: create "webhook_endpoints" table
DROP TABLE "webhook_endpoints";
