-- +goose Up
-- modify "activities" table
ALTER TABLE "activities" ADD COLUMN "expires_at" timestamptz NULL;
-- create index "activity_status_expires_at" to table: "activities"
CREATE INDEX "activity_status_expires_at" ON "activities" ("status", "expires_at");
-- create "generation_decisions" table
CREATE TABLE "generation_decisions" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "project_id" uuid NOT NULL, "activity_generation_config_id" uuid NOT NULL, "rule_id" uuid NOT NULL, "commerce_id" uuid NOT NULL, "trigger" character varying NOT NULL, "stage" character varying NOT NULL, "status_code" character varying NOT NULL, "entered_at" timestamptz NOT NULL, "kind" character varying NOT NULL, "reason" character varying NULL, "detail" character varying NOT NULL, "activity_id" uuid NULL, "transition_id" uuid NULL, "decided_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create index "generationdecision_rule_id_commerce_id_entered_at" to table: "generation_decisions"
CREATE UNIQUE INDEX "generationdecision_rule_id_commerce_id_entered_at" ON "generation_decisions" ("rule_id", "commerce_id", "entered_at");
-- create index "generationdecision_tenant_id_a_c99eff0a3711e03e9c7feb756e466c45" to table: "generation_decisions"
CREATE INDEX "generationdecision_tenant_id_a_c99eff0a3711e03e9c7feb756e466c45" ON "generation_decisions" ("tenant_id", "activity_generation_config_id", "decided_at", "id");
-- create index "generationdecision_tenant_id_commerce_id_decided_at_id" to table: "generation_decisions"
CREATE INDEX "generationdecision_tenant_id_commerce_id_decided_at_id" ON "generation_decisions" ("tenant_id", "commerce_id", "decided_at", "id");
-- create "generation_outbox" table
CREATE TABLE "generation_outbox" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "created_at" timestamptz NOT NULL, PRIMARY KEY ("id"));
-- create index "generationoutbox_created_at_id" to table: "generation_outbox"
CREATE INDEX "generationoutbox_created_at_id" ON "generation_outbox" ("created_at", "id");

-- +goose Down
-- reverse: create index "generationoutbox_created_at_id" to table: "generation_outbox"
DROP INDEX "generationoutbox_created_at_id";
-- reverse: create "generation_outbox" table
DROP TABLE "generation_outbox";
-- reverse: create index "generationdecision_tenant_id_commerce_id_decided_at_id" to table: "generation_decisions"
DROP INDEX "generationdecision_tenant_id_commerce_id_decided_at_id";
-- reverse: create index "generationdecision_tenant_id_a_c99eff0a3711e03e9c7feb756e466c45" to table: "generation_decisions"
DROP INDEX "generationdecision_tenant_id_a_c99eff0a3711e03e9c7feb756e466c45";
-- reverse: create index "generationdecision_rule_id_commerce_id_entered_at" to table: "generation_decisions"
DROP INDEX "generationdecision_rule_id_commerce_id_entered_at";
-- reverse: create "generation_decisions" table
DROP TABLE "generation_decisions";
-- reverse: create index "activity_status_expires_at" to table: "activities"
DROP INDEX "activity_status_expires_at";
-- reverse: modify "activities" table
ALTER TABLE "activities" DROP COLUMN "expires_at";
