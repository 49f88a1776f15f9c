-- +goose Up
-- create "generation_policies" table
CREATE TABLE `generation_policies` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `max_per_commerce` integer NOT NULL DEFAULT (3), `window_days` integer NOT NULL DEFAULT (7), `min_gap_days` integer NOT NULL DEFAULT (1), `control_percent` integer NOT NULL DEFAULT (0), `control_salt` text NOT NULL, `salt_changed_at` datetime NULL, `updated_by` uuid NULL, `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `generation_policies_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `generation_policies_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION);
-- create index "generationpolicy_tenant_id" to table: "generation_policies"
CREATE INDEX `generationpolicy_tenant_id` ON `generation_policies` (`tenant_id`);
-- create index "generationpolicy_project_id" to table: "generation_policies"
CREATE INDEX `generationpolicy_project_id` ON `generation_policies` (`project_id`);
-- create index "generationpolicy_one_per_project" to table: "generation_policies"
CREATE UNIQUE INDEX `generationpolicy_one_per_project` ON `generation_policies` (`project_id`);
-- create "generation_settings" table
CREATE TABLE `generation_settings` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `holdout_percent` integer NOT NULL DEFAULT (0), `holdout_salt` text NOT NULL, `salt_changed_at` datetime NULL, `updated_by` uuid NULL, `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `activity_generation_config_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `generation_settings_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `generation_settings_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `generation_settings_activity_ge_a5d854050ba66d6c75b981d00d8a26aa` FOREIGN KEY (`activity_generation_config_id`) REFERENCES `activity_generation_configs` (`id`) ON DELETE CASCADE);
-- create index "generationsettings_tenant_id" to table: "generation_settings"
CREATE INDEX `generationsettings_tenant_id` ON `generation_settings` (`tenant_id`);
-- create index "generationsettings_project_id" to table: "generation_settings"
CREATE INDEX `generationsettings_project_id` ON `generation_settings` (`project_id`);
-- create index "generationsettings_activity_generation_config_id" to table: "generation_settings"
CREATE UNIQUE INDEX `generationsettings_activity_generation_config_id` ON `generation_settings` (`activity_generation_config_id`);

-- +goose Down
-- reverse: create index "generationsettings_activity_generation_config_id" to table: "generation_settings"
DROP INDEX `generationsettings_activity_generation_config_id`;
-- reverse: create index "generationsettings_project_id" to table: "generation_settings"
DROP INDEX `generationsettings_project_id`;
-- reverse: create index "generationsettings_tenant_id" to table: "generation_settings"
DROP INDEX `generationsettings_tenant_id`;
-- reverse: create "generation_settings" table
DROP TABLE `generation_settings`;
-- reverse: create index "generationpolicy_one_per_project" to table: "generation_policies"
DROP INDEX `generationpolicy_one_per_project`;
-- reverse: create index "generationpolicy_project_id" to table: "generation_policies"
DROP INDEX `generationpolicy_project_id`;
-- reverse: create index "generationpolicy_tenant_id" to table: "generation_policies"
DROP INDEX `generationpolicy_tenant_id`;
-- reverse: create "generation_policies" table
DROP TABLE `generation_policies`;
