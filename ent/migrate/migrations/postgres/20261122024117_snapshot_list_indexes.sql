-- +goose Up
-- drop index "commercelifecyclesnapshot_tena_8f1cf6ba2c8fbb7ab98f269606794e64" from table: "commerce_lifecycle_snapshots"
DROP INDEX "commercelifecyclesnapshot_tena_8f1cf6ba2c8fbb7ab98f269606794e64";
-- drop index "commercelifecyclesnapshot_tenant_id_code_state_changed_at" from table: "commerce_lifecycle_snapshots"
DROP INDEX "commercelifecyclesnapshot_tenant_id_code_state_changed_at";
-- drop index "commercelifecyclesnapshot_tenant_id_stage_state_changed_at" from table: "commerce_lifecycle_snapshots"
DROP INDEX "commercelifecyclesnapshot_tenant_id_stage_state_changed_at";
-- drop index "commercelifecyclesnapshot_tenant_id_state_changed_at" from table: "commerce_lifecycle_snapshots"
DROP INDEX "commercelifecyclesnapshot_tenant_id_state_changed_at";
-- create index "commercelifecyclesnapshot_tena_7357f7b08986836419f84544f97211a4" to table: "commerce_lifecycle_snapshots"
CREATE INDEX "commercelifecyclesnapshot_tena_7357f7b08986836419f84544f97211a4" ON "commerce_lifecycle_snapshots" ("tenant_id", "activity_generation_config_id", "state_changed_at", "id");
-- create index "commercelifecyclesnapshot_tenant_id_code_state_changed_at_id" to table: "commerce_lifecycle_snapshots"
CREATE INDEX "commercelifecyclesnapshot_tenant_id_code_state_changed_at_id" ON "commerce_lifecycle_snapshots" ("tenant_id", "code", "state_changed_at", "id");
-- create index "commercelifecyclesnapshot_tenant_id_stage_state_changed_at_id" to table: "commerce_lifecycle_snapshots"
CREATE INDEX "commercelifecyclesnapshot_tenant_id_stage_state_changed_at_id" ON "commerce_lifecycle_snapshots" ("tenant_id", "stage", "state_changed_at", "id");
-- create index "commercelifecyclesnapshot_tenant_id_state_changed_at_id" to table: "commerce_lifecycle_snapshots"
CREATE INDEX "commercelifecyclesnapshot_tenant_id_state_changed_at_id" ON "commerce_lifecycle_snapshots" ("tenant_id", "state_changed_at", "id");

-- +goose Down
-- reverse: create index "commercelifecyclesnapshot_tenant_id_state_changed_at_id" to table: "commerce_lifecycle_snapshots"
DROP INDEX "commercelifecyclesnapshot_tenant_id_state_changed_at_id";
-- reverse: create index "commercelifecyclesnapshot_tenant_id_stage_state_changed_at_id" to table: "commerce_lifecycle_snapshots"
DROP INDEX "commercelifecyclesnapshot_tenant_id_stage_state_changed_at_id";
-- reverse: create index "commercelifecyclesnapshot_tenant_id_code_state_changed_at_id" to table: "commerce_lifecycle_snapshots"
DROP INDEX "commercelifecyclesnapshot_tenant_id_code_state_changed_at_id";
-- reverse: create index "commercelifecyclesnapshot_tena_7357f7b08986836419f84544f97211a4" to table: "commerce_lifecycle_snapshots"
DROP INDEX "commercelifecyclesnapshot_tena_7357f7b08986836419f84544f97211a4";
-- reverse: drop index "commercelifecyclesnapshot_tenant_id_state_changed_at" from table: "commerce_lifecycle_snapshots"
CREATE INDEX "commercelifecyclesnapshot_tenant_id_state_changed_at" ON "commerce_lifecycle_snapshots" ("tenant_id", "state_changed_at");
-- reverse: drop index "commercelifecyclesnapshot_tenant_id_stage_state_changed_at" from table: "commerce_lifecycle_snapshots"
CREATE INDEX "commercelifecyclesnapshot_tenant_id_stage_state_changed_at" ON "commerce_lifecycle_snapshots" ("tenant_id", "stage", "state_changed_at");
-- reverse: drop index "commercelifecyclesnapshot_tenant_id_code_state_changed_at" from table: "commerce_lifecycle_snapshots"
CREATE INDEX "commercelifecyclesnapshot_tenant_id_code_state_changed_at" ON "commerce_lifecycle_snapshots" ("tenant_id", "code", "state_changed_at");
-- reverse: drop index "commercelifecyclesnapshot_tena_8f1cf6ba2c8fbb7ab98f269606794e64" from table: "commerce_lifecycle_snapshots"
CREATE INDEX "commercelifecyclesnapshot_tena_8f1cf6ba2c8fbb7ab98f269606794e64" ON "commerce_lifecycle_snapshots" ("tenant_id", "activity_generation_config_id", "state_changed_at");
