-- +goose Up
-- create "generation_rules" table
CREATE TABLE `generation_rules` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `archived_at` datetime NULL, `name` text NOT NULL, `trigger` text NOT NULL, `stage` text NOT NULL, `status_code` text NOT NULL, `dwell_days` integer NULL, `type` text NOT NULL, `channel` text NOT NULL, `reason_code` text NOT NULL, `title_template` text NOT NULL, `instructions_template` text NOT NULL DEFAULT (''), `attributes` json NULL, `offset_days` integer NOT NULL DEFAULT (0), `time_of_day` text NOT NULL DEFAULT ('09:00'), `skip_weekends` bool NOT NULL DEFAULT (false), `expires_after_days` integer NULL, `assignment` text NULL, `operator_type` text NULL, `target_role` text NULL, `is_active` bool NOT NULL DEFAULT (true), `priority` integer NOT NULL DEFAULT (100), `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `activity_generation_config_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `generation_rules_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `generation_rules_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `generation_rules_activity_gener_b93d864e9fbab3b7d8242d17c2fdc864` FOREIGN KEY (`activity_generation_config_id`) REFERENCES `activity_generation_configs` (`id`) ON DELETE CASCADE);
-- create index "generationrule_tenant_id" to table: "generation_rules"
CREATE INDEX `generationrule_tenant_id` ON `generation_rules` (`tenant_id`);
-- create index "generationrule_project_id" to table: "generation_rules"
CREATE INDEX `generationrule_project_id` ON `generation_rules` (`project_id`);
-- create index "generationrule_activity_generation_config_id_name" to table: "generation_rules"
CREATE UNIQUE INDEX `generationrule_activity_generation_config_id_name` ON `generation_rules` (`activity_generation_config_id`, `name`) WHERE archived_at IS NULL;
-- create index "generationrule_tenant_id_activi_c69fe659e14e52286bc57485fd0c67b2" to table: "generation_rules"
CREATE INDEX `generationrule_tenant_id_activi_c69fe659e14e52286bc57485fd0c67b2` ON `generation_rules` (`tenant_id`, `activity_generation_config_id`, `priority`, `name`, `id`) WHERE archived_at IS NULL;

-- +goose Down
-- reverse: create index "generationrule_tenant_id_activi_c69fe659e14e52286bc57485fd0c67b2" to table: "generation_rules"
DROP INDEX `generationrule_tenant_id_activi_c69fe659e14e52286bc57485fd0c67b2`;
-- reverse: create index "generationrule_activity_generation_config_id_name" to table: "generation_rules"
DROP INDEX `generationrule_activity_generation_config_id_name`;
-- reverse: create index "generationrule_project_id" to table: "generation_rules"
DROP INDEX `generationrule_project_id`;
-- reverse: create index "generationrule_tenant_id" to table: "generation_rules"
DROP INDEX `generationrule_tenant_id`;
-- reverse: create "generation_rules" table
DROP TABLE `generation_rules`;
