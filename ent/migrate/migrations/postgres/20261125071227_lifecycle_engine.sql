-- +goose Up
-- modify "commerce_lifecycle_snapshots" table
ALTER TABLE "commerce_lifecycle_snapshots" ADD COLUMN "prior_stage" character varying NULL, ADD COLUMN "prior_code" character varying NULL;
-- modify "tenants" table
ALTER TABLE "tenants" ADD COLUMN "lifecycle_run_time" character varying NULL;
-- create "commerce_lifecycle_transitions" table
CREATE TABLE "commerce_lifecycle_transitions" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "from_stage" character varying NULL, "from_code" character varying NULL, "to_stage" character varying NOT NULL, "to_code" character varying NOT NULL, "state_changed_at" timestamptz NOT NULL, "last_computed_at" timestamptz NOT NULL, "config_hash" character varying NULL, "run_id" uuid NULL, "source" character varying NOT NULL, "tenant_id" uuid NOT NULL, "commerce_id" uuid NOT NULL, "activity_generation_config_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "commerce_lifecycle_transitions_cd591dd5c8127eb4bf80cf65576cbba0" FOREIGN KEY ("activity_generation_config_id") REFERENCES "activity_generation_configs" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "commerce_lifecycle_transitions_commerces_commerce" FOREIGN KEY ("commerce_id") REFERENCES "commerces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "commerce_lifecycle_transitions_tenants_tenant" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- create index "commercelifecycletransition_te_6d5707f52dc88c21dc5748a6ac9016b5" to table: "commerce_lifecycle_transitions"
CREATE INDEX "commercelifecycletransition_te_6d5707f52dc88c21dc5748a6ac9016b5" ON "commerce_lifecycle_transitions" ("tenant_id", "commerce_id", "state_changed_at", "id");
-- create index "commercelifecycletransition_te_6e7630294cf9949e2e005f2aa5f8abe2" to table: "commerce_lifecycle_transitions"
CREATE INDEX "commercelifecycletransition_te_6e7630294cf9949e2e005f2aa5f8abe2" ON "commerce_lifecycle_transitions" ("tenant_id", "activity_generation_config_id", "state_changed_at", "id");
-- create index "commercelifecycletransition_te_8c534e36fd524d79b726b97c4049080a" to table: "commerce_lifecycle_transitions"
CREATE INDEX "commercelifecycletransition_te_8c534e36fd524d79b726b97c4049080a" ON "commerce_lifecycle_transitions" ("tenant_id", "run_id", "state_changed_at", "id");
-- create index "commercelifecycletransition_tenant_id" to table: "commerce_lifecycle_transitions"
CREATE INDEX "commercelifecycletransition_tenant_id" ON "commerce_lifecycle_transitions" ("tenant_id");
-- create index "commercelifecycletransition_tenant_id_state_changed_at_id" to table: "commerce_lifecycle_transitions"
CREATE INDEX "commercelifecycletransition_tenant_id_state_changed_at_id" ON "commerce_lifecycle_transitions" ("tenant_id", "state_changed_at", "id");
-- create "lifecycle_runs" table
CREATE TABLE "lifecycle_runs" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "status" character varying NOT NULL DEFAULT 'QUEUED', "trigger" character varying NOT NULL DEFAULT 'MANUAL', "as_of" timestamptz NOT NULL, "dry_run" boolean NOT NULL DEFAULT false, "config_hashes" jsonb NULL, "started_at" timestamptz NULL, "finished_at" timestamptz NULL, "counts" jsonb NOT NULL, "by_state" jsonb NOT NULL, "error" character varying NULL, "scheduled_for" character varying NULL, "claim" uuid NULL, "lease_until" timestamptz NULL, "attempts" bigint NOT NULL DEFAULT 0, "tenant_id" uuid NOT NULL, "project_id" uuid NOT NULL, "activity_generation_config_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "lifecycle_runs_activity_genera_47ce438e0c1f4c9b733ec9c9802f123c" FOREIGN KEY ("activity_generation_config_id") REFERENCES "activity_generation_configs" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "lifecycle_runs_projects_project" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "lifecycle_runs_tenants_tenant" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- create index "lifecyclerun_activity_generation_config_id_created_at_id" to table: "lifecycle_runs"
CREATE INDEX "lifecyclerun_activity_generation_config_id_created_at_id" ON "lifecycle_runs" ("activity_generation_config_id", "created_at", "id");
-- create index "lifecyclerun_activity_generation_config_id_scheduled_for" to table: "lifecycle_runs"
CREATE UNIQUE INDEX "lifecyclerun_activity_generation_config_id_scheduled_for" ON "lifecycle_runs" ("activity_generation_config_id", "scheduled_for");
-- create index "lifecyclerun_project_id" to table: "lifecycle_runs"
CREATE INDEX "lifecyclerun_project_id" ON "lifecycle_runs" ("project_id");
-- create index "lifecyclerun_status_created_at" to table: "lifecycle_runs"
CREATE INDEX "lifecyclerun_status_created_at" ON "lifecycle_runs" ("status", "created_at");
-- create index "lifecyclerun_tenant_id" to table: "lifecycle_runs"
CREATE INDEX "lifecyclerun_tenant_id" ON "lifecycle_runs" ("tenant_id");

-- +goose Down
-- reverse: create index "lifecyclerun_tenant_id" to table: "lifecycle_runs"
DROP INDEX "lifecyclerun_tenant_id";
-- reverse: create index "lifecyclerun_status_created_at" to table: "lifecycle_runs"
DROP INDEX "lifecyclerun_status_created_at";
-- reverse: create index "lifecyclerun_project_id" to table: "lifecycle_runs"
DROP INDEX "lifecyclerun_project_id";
-- reverse: create index "lifecyclerun_activity_generation_config_id_scheduled_for" to table: "lifecycle_runs"
DROP INDEX "lifecyclerun_activity_generation_config_id_scheduled_for";
-- reverse: create index "lifecyclerun_activity_generation_config_id_created_at_id" to table: "lifecycle_runs"
DROP INDEX "lifecyclerun_activity_generation_config_id_created_at_id";
-- reverse: create "lifecycle_runs" table
DROP TABLE "lifecycle_runs";
-- reverse: create index "commercelifecycletransition_tenant_id_state_changed_at_id" to table: "commerce_lifecycle_transitions"
DROP INDEX "commercelifecycletransition_tenant_id_state_changed_at_id";
-- reverse: create index "commercelifecycletransition_tenant_id" to table: "commerce_lifecycle_transitions"
DROP INDEX "commercelifecycletransition_tenant_id";
-- reverse: create index "commercelifecycletransition_te_8c534e36fd524d79b726b97c4049080a" to table: "commerce_lifecycle_transitions"
DROP INDEX "commercelifecycletransition_te_8c534e36fd524d79b726b97c4049080a";
-- reverse: create index "commercelifecycletransition_te_6e7630294cf9949e2e005f2aa5f8abe2" to table: "commerce_lifecycle_transitions"
DROP INDEX "commercelifecycletransition_te_6e7630294cf9949e2e005f2aa5f8abe2";
-- reverse: create index "commercelifecycletransition_te_6d5707f52dc88c21dc5748a6ac9016b5" to table: "commerce_lifecycle_transitions"
DROP INDEX "commercelifecycletransition_te_6d5707f52dc88c21dc5748a6ac9016b5";
-- reverse: create "commerce_lifecycle_transitions" table
DROP TABLE "commerce_lifecycle_transitions";
-- reverse: modify "tenants" table
ALTER TABLE "tenants" DROP COLUMN "lifecycle_run_time";
-- reverse: modify "commerce_lifecycle_snapshots" table
ALTER TABLE "commerce_lifecycle_snapshots" DROP COLUMN "prior_code", DROP COLUMN "prior_stage";
