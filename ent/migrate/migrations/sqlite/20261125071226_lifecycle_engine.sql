-- +goose Up
-- add column "prior_stage" to table: "commerce_lifecycle_snapshots"
ALTER TABLE `commerce_lifecycle_snapshots` ADD COLUMN `prior_stage` text NULL;
-- add column "prior_code" to table: "commerce_lifecycle_snapshots"
ALTER TABLE `commerce_lifecycle_snapshots` ADD COLUMN `prior_code` text NULL;
-- add column "lifecycle_run_time" to table: "tenants"
ALTER TABLE `tenants` ADD COLUMN `lifecycle_run_time` text NULL;
-- create "commerce_lifecycle_transitions" table
CREATE TABLE `commerce_lifecycle_transitions` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `from_stage` text NULL, `from_code` text NULL, `to_stage` text NOT NULL, `to_code` text NOT NULL, `state_changed_at` datetime NOT NULL, `last_computed_at` datetime NOT NULL, `config_hash` text NULL, `run_id` uuid NULL, `source` text NOT NULL, `tenant_id` uuid NOT NULL, `commerce_id` uuid NOT NULL, `activity_generation_config_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `commerce_lifecycle_transitions_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `commerce_lifecycle_transitions_commerces_commerce` FOREIGN KEY (`commerce_id`) REFERENCES `commerces` (`id`) ON DELETE CASCADE, CONSTRAINT `commerce_lifecycle_transitions__c0221ddef95109eaa016119b848fe599` FOREIGN KEY (`activity_generation_config_id`) REFERENCES `activity_generation_configs` (`id`) ON DELETE CASCADE);
-- create index "commercelifecycletransition_tenant_id" to table: "commerce_lifecycle_transitions"
CREATE INDEX `commercelifecycletransition_tenant_id` ON `commerce_lifecycle_transitions` (`tenant_id`);
-- create index "commercelifecycletransition_tenant_id_state_changed_at_id" to table: "commerce_lifecycle_transitions"
CREATE INDEX `commercelifecycletransition_tenant_id_state_changed_at_id` ON `commerce_lifecycle_transitions` (`tenant_id`, `state_changed_at`, `id`);
-- create index "commercelifecycletransition_ten_506d81196fc2dc348b1cf0316dc29e56" to table: "commerce_lifecycle_transitions"
CREATE INDEX `commercelifecycletransition_ten_506d81196fc2dc348b1cf0316dc29e56` ON `commerce_lifecycle_transitions` (`tenant_id`, `commerce_id`, `state_changed_at`, `id`);
-- create index "commercelifecycletransition_ten_24951e7fb60ca97648bf1a37812d17ad" to table: "commerce_lifecycle_transitions"
CREATE INDEX `commercelifecycletransition_ten_24951e7fb60ca97648bf1a37812d17ad` ON `commerce_lifecycle_transitions` (`tenant_id`, `activity_generation_config_id`, `state_changed_at`, `id`);
-- create index "commercelifecycletransition_tenant_id_run_id_state_changed_at_id" to table: "commerce_lifecycle_transitions"
CREATE INDEX `commercelifecycletransition_tenant_id_run_id_state_changed_at_id` ON `commerce_lifecycle_transitions` (`tenant_id`, `run_id`, `state_changed_at`, `id`);
-- create "lifecycle_runs" table
CREATE TABLE `lifecycle_runs` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `status` text NOT NULL DEFAULT ('QUEUED'), `trigger` text NOT NULL DEFAULT ('MANUAL'), `as_of` datetime NOT NULL, `dry_run` bool NOT NULL DEFAULT (false), `config_hashes` json NULL, `started_at` datetime NULL, `finished_at` datetime NULL, `counts` json NOT NULL, `by_state` json NOT NULL, `error` text NULL, `scheduled_for` text NULL, `claim` uuid NULL, `lease_until` datetime NULL, `attempts` integer NOT NULL DEFAULT (0), `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `activity_generation_config_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `lifecycle_runs_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `lifecycle_runs_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `lifecycle_runs_activity_generat_8e1498e81fe4d4df77e3ca632ce62bc0` FOREIGN KEY (`activity_generation_config_id`) REFERENCES `activity_generation_configs` (`id`) ON DELETE CASCADE);
-- create index "lifecyclerun_tenant_id" to table: "lifecycle_runs"
CREATE INDEX `lifecyclerun_tenant_id` ON `lifecycle_runs` (`tenant_id`);
-- create index "lifecyclerun_project_id" to table: "lifecycle_runs"
CREATE INDEX `lifecyclerun_project_id` ON `lifecycle_runs` (`project_id`);
-- create index "lifecyclerun_activity_generation_config_id_created_at_id" to table: "lifecycle_runs"
CREATE INDEX `lifecyclerun_activity_generation_config_id_created_at_id` ON `lifecycle_runs` (`activity_generation_config_id`, `created_at`, `id`);
-- create index "lifecyclerun_status_created_at" to table: "lifecycle_runs"
CREATE INDEX `lifecyclerun_status_created_at` ON `lifecycle_runs` (`status`, `created_at`);
-- create index "lifecyclerun_activity_generation_config_id_scheduled_for" to table: "lifecycle_runs"
CREATE UNIQUE INDEX `lifecyclerun_activity_generation_config_id_scheduled_for` ON `lifecycle_runs` (`activity_generation_config_id`, `scheduled_for`);

-- +goose Down
-- reverse: create index "lifecyclerun_activity_generation_config_id_scheduled_for" to table: "lifecycle_runs"
DROP INDEX `lifecyclerun_activity_generation_config_id_scheduled_for`;
-- reverse: create index "lifecyclerun_status_created_at" to table: "lifecycle_runs"
DROP INDEX `lifecyclerun_status_created_at`;
-- reverse: create index "lifecyclerun_activity_generation_config_id_created_at_id" to table: "lifecycle_runs"
DROP INDEX `lifecyclerun_activity_generation_config_id_created_at_id`;
-- reverse: create index "lifecyclerun_project_id" to table: "lifecycle_runs"
DROP INDEX `lifecyclerun_project_id`;
-- reverse: create index "lifecyclerun_tenant_id" to table: "lifecycle_runs"
DROP INDEX `lifecyclerun_tenant_id`;
-- reverse: create "lifecycle_runs" table
DROP TABLE `lifecycle_runs`;
-- reverse: create index "commercelifecycletransition_tenant_id_run_id_state_changed_at_id" to table: "commerce_lifecycle_transitions"
DROP INDEX `commercelifecycletransition_tenant_id_run_id_state_changed_at_id`;
-- reverse: create index "commercelifecycletransition_ten_24951e7fb60ca97648bf1a37812d17ad" to table: "commerce_lifecycle_transitions"
DROP INDEX `commercelifecycletransition_ten_24951e7fb60ca97648bf1a37812d17ad`;
-- reverse: create index "commercelifecycletransition_ten_506d81196fc2dc348b1cf0316dc29e56" to table: "commerce_lifecycle_transitions"
DROP INDEX `commercelifecycletransition_ten_506d81196fc2dc348b1cf0316dc29e56`;
-- reverse: create index "commercelifecycletransition_tenant_id_state_changed_at_id" to table: "commerce_lifecycle_transitions"
DROP INDEX `commercelifecycletransition_tenant_id_state_changed_at_id`;
-- reverse: create index "commercelifecycletransition_tenant_id" to table: "commerce_lifecycle_transitions"
DROP INDEX `commercelifecycletransition_tenant_id`;
-- reverse: create "commerce_lifecycle_transitions" table
DROP TABLE `commerce_lifecycle_transitions`;
-- reverse: add column "lifecycle_run_time" to table: "tenants"
ALTER TABLE `tenants` DROP COLUMN `lifecycle_run_time`;
-- reverse: add column "prior_code" to table: "commerce_lifecycle_snapshots"
ALTER TABLE `commerce_lifecycle_snapshots` DROP COLUMN `prior_code`;
-- reverse: add column "prior_stage" to table: "commerce_lifecycle_snapshots"
ALTER TABLE `commerce_lifecycle_snapshots` DROP COLUMN `prior_stage`;
