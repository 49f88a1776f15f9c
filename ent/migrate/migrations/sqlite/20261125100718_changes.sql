-- +goose Up
-- disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- create "new_commerce_lifecycle_transitions" table
CREATE TABLE `new_commerce_lifecycle_transitions` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `tenant_id` uuid NOT NULL, `commerce_id` uuid NOT NULL, `activity_generation_config_id` uuid NOT NULL, `from_stage` text NULL, `from_code` text NULL, `to_stage` text NOT NULL, `to_code` text NOT NULL, `state_changed_at` datetime NOT NULL, `last_computed_at` datetime NOT NULL, `config_hash` text NULL, `run_id` uuid NULL, `source` text NOT NULL, PRIMARY KEY (`id`));
-- copy rows from old table "commerce_lifecycle_transitions" to new temporary table "new_commerce_lifecycle_transitions"
INSERT INTO `new_commerce_lifecycle_transitions` (`id`, `created_at`, `updated_at`, `tenant_id`, `commerce_id`, `activity_generation_config_id`, `from_stage`, `from_code`, `to_stage`, `to_code`, `state_changed_at`, `last_computed_at`, `config_hash`, `run_id`, `source`) SELECT `id`, `created_at`, `updated_at`, `tenant_id`, `commerce_id`, `activity_generation_config_id`, `from_stage`, `from_code`, `to_stage`, `to_code`, `state_changed_at`, `last_computed_at`, `config_hash`, `run_id`, `source` FROM `commerce_lifecycle_transitions`;
-- drop "commerce_lifecycle_transitions" table after copying rows
DROP TABLE `commerce_lifecycle_transitions`;
-- rename temporary table "new_commerce_lifecycle_transitions" to "commerce_lifecycle_transitions"
ALTER TABLE `new_commerce_lifecycle_transitions` RENAME TO `commerce_lifecycle_transitions`;
-- create index "commercelifecycletransition_tenant_id_state_changed_at_id" to table: "commerce_lifecycle_transitions"
CREATE INDEX `commercelifecycletransition_tenant_id_state_changed_at_id` ON `commerce_lifecycle_transitions` (`tenant_id`, `state_changed_at`, `id`);
-- create index "commercelifecycletransition_ten_506d81196fc2dc348b1cf0316dc29e56" to table: "commerce_lifecycle_transitions"
CREATE INDEX `commercelifecycletransition_ten_506d81196fc2dc348b1cf0316dc29e56` ON `commerce_lifecycle_transitions` (`tenant_id`, `commerce_id`, `state_changed_at`, `id`);
-- create index "commercelifecycletransition_ten_24951e7fb60ca97648bf1a37812d17ad" to table: "commerce_lifecycle_transitions"
CREATE INDEX `commercelifecycletransition_ten_24951e7fb60ca97648bf1a37812d17ad` ON `commerce_lifecycle_transitions` (`tenant_id`, `activity_generation_config_id`, `state_changed_at`, `id`);
-- create index "commercelifecycletransition_tenant_id_source_state_changed_at_id" to table: "commerce_lifecycle_transitions"
CREATE INDEX `commercelifecycletransition_tenant_id_source_state_changed_at_id` ON `commerce_lifecycle_transitions` (`tenant_id`, `source`, `state_changed_at`, `id`);
-- create index "commercelifecycletransition_tenant_id_run_id_state_changed_at_id" to table: "commerce_lifecycle_transitions"
CREATE INDEX `commercelifecycletransition_tenant_id_run_id_state_changed_at_id` ON `commerce_lifecycle_transitions` (`tenant_id`, `run_id`, `state_changed_at`, `id`);
-- enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

-- +goose Down
-- reverse: create index "commercelifecycletransition_tenant_id_run_id_state_changed_at_id" to table: "commerce_lifecycle_transitions"
DROP INDEX `commercelifecycletransition_tenant_id_run_id_state_changed_at_id`;
-- reverse: create index "commercelifecycletransition_tenant_id_source_state_changed_at_id" to table: "commerce_lifecycle_transitions"
DROP INDEX `commercelifecycletransition_tenant_id_source_state_changed_at_id`;
-- reverse: create index "commercelifecycletransition_ten_24951e7fb60ca97648bf1a37812d17ad" to table: "commerce_lifecycle_transitions"
DROP INDEX `commercelifecycletransition_ten_24951e7fb60ca97648bf1a37812d17ad`;
-- reverse: create index "commercelifecycletransition_ten_506d81196fc2dc348b1cf0316dc29e56" to table: "commerce_lifecycle_transitions"
DROP INDEX `commercelifecycletransition_ten_506d81196fc2dc348b1cf0316dc29e56`;
-- reverse: create index "commercelifecycletransition_tenant_id_state_changed_at_id" to table: "commerce_lifecycle_transitions"
DROP INDEX `commercelifecycletransition_tenant_id_state_changed_at_id`;
-- reverse: create "new_commerce_lifecycle_transitions" table
DROP TABLE `new_commerce_lifecycle_transitions`;
