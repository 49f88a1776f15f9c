-- +goose Up
-- drop index "commercelifecyclesnapshot_tenant_id_state_changed_at" from table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_tenant_id_state_changed_at`;
-- drop index "commercelifecyclesnapshot_tenant_id_code_state_changed_at" from table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_tenant_id_code_state_changed_at`;
-- drop index "commercelifecyclesnapshot_tenant_id_stage_state_changed_at" from table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_tenant_id_stage_state_changed_at`;
-- drop index "commercelifecyclesnapshot_tenan_38506f300c87d44862236faf271145bd" from table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_tenan_38506f300c87d44862236faf271145bd`;
-- create index "commercelifecyclesnapshot_tenant_id_state_changed_at_id" to table: "commerce_lifecycle_snapshots"
CREATE INDEX `commercelifecyclesnapshot_tenant_id_state_changed_at_id` ON `commerce_lifecycle_snapshots` (`tenant_id`, `state_changed_at`, `id`);
-- create index "commercelifecyclesnapshot_tenant_id_code_state_changed_at_id" to table: "commerce_lifecycle_snapshots"
CREATE INDEX `commercelifecyclesnapshot_tenant_id_code_state_changed_at_id` ON `commerce_lifecycle_snapshots` (`tenant_id`, `code`, `state_changed_at`, `id`);
-- create index "commercelifecyclesnapshot_tenant_id_stage_state_changed_at_id" to table: "commerce_lifecycle_snapshots"
CREATE INDEX `commercelifecyclesnapshot_tenant_id_stage_state_changed_at_id` ON `commerce_lifecycle_snapshots` (`tenant_id`, `stage`, `state_changed_at`, `id`);
-- create index "commercelifecyclesnapshot_tenan_32b844e18baf4d3686815c7e0e22cd36" to table: "commerce_lifecycle_snapshots"
CREATE INDEX `commercelifecyclesnapshot_tenan_32b844e18baf4d3686815c7e0e22cd36` ON `commerce_lifecycle_snapshots` (`tenant_id`, `activity_generation_config_id`, `state_changed_at`, `id`);

-- +goose Down
-- reverse: create index "commercelifecyclesnapshot_tenan_32b844e18baf4d3686815c7e0e22cd36" to table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_tenan_32b844e18baf4d3686815c7e0e22cd36`;
-- reverse: create index "commercelifecyclesnapshot_tenant_id_stage_state_changed_at_id" to table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_tenant_id_stage_state_changed_at_id`;
-- reverse: create index "commercelifecyclesnapshot_tenant_id_code_state_changed_at_id" to table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_tenant_id_code_state_changed_at_id`;
-- reverse: create index "commercelifecyclesnapshot_tenant_id_state_changed_at_id" to table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_tenant_id_state_changed_at_id`;
-- reverse: drop index "commercelifecyclesnapshot_tenan_38506f300c87d44862236faf271145bd" from table: "commerce_lifecycle_snapshots"
CREATE INDEX `commercelifecyclesnapshot_tenan_38506f300c87d44862236faf271145bd` ON `commerce_lifecycle_snapshots` (`tenant_id`, `activity_generation_config_id`, `state_changed_at`);
-- reverse: drop index "commercelifecyclesnapshot_tenant_id_stage_state_changed_at" from table: "commerce_lifecycle_snapshots"
CREATE INDEX `commercelifecyclesnapshot_tenant_id_stage_state_changed_at` ON `commerce_lifecycle_snapshots` (`tenant_id`, `stage`, `state_changed_at`);
-- reverse: drop index "commercelifecyclesnapshot_tenant_id_code_state_changed_at" from table: "commerce_lifecycle_snapshots"
CREATE INDEX `commercelifecyclesnapshot_tenant_id_code_state_changed_at` ON `commerce_lifecycle_snapshots` (`tenant_id`, `code`, `state_changed_at`);
-- reverse: drop index "commercelifecyclesnapshot_tenant_id_state_changed_at" from table: "commerce_lifecycle_snapshots"
CREATE INDEX `commercelifecyclesnapshot_tenant_id_state_changed_at` ON `commerce_lifecycle_snapshots` (`tenant_id`, `state_changed_at`);
