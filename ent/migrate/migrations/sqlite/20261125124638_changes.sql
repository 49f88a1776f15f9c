-- +goose Up
-- disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- create "new_activities" table
CREATE TABLE `new_activities` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `activity_generation_config_id` uuid NULL, `type` text NOT NULL, `channel` text NOT NULL, `status` text NOT NULL DEFAULT ('READY'), `scheduled_at` datetime NOT NULL, `provider_activity_id` text NULL, `title` text NULL, `description` text NULL, `reason_code` text NULL, `dispatch_attempts` integer NOT NULL DEFAULT (0), `next_dispatch_at` datetime NULL, `closed_at` datetime NULL, `expires_at` datetime NULL, `created_by` uuid NULL, `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `commerce_id` uuid NOT NULL, `operator_id` uuid NULL, `route_id` uuid NULL, PRIMARY KEY (`id`), CONSTRAINT `activities_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `activities_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `activities_commerces_commerce` FOREIGN KEY (`commerce_id`) REFERENCES `commerces` (`id`) ON DELETE NO ACTION, CONSTRAINT `activities_operators_operator` FOREIGN KEY (`operator_id`) REFERENCES `operators` (`id`) ON DELETE SET NULL, CONSTRAINT `activities_routes_route` FOREIGN KEY (`route_id`) REFERENCES `routes` (`id`) ON DELETE SET NULL);
-- copy rows from old table "activities" to new temporary table "new_activities"
INSERT INTO `new_activities` (`id`, `created_at`, `updated_at`, `activity_generation_config_id`, `type`, `channel`, `status`, `scheduled_at`, `provider_activity_id`, `title`, `description`, `reason_code`, `dispatch_attempts`, `next_dispatch_at`, `closed_at`, `created_by`, `tenant_id`, `project_id`, `commerce_id`, `operator_id`, `route_id`) SELECT `id`, `created_at`, `updated_at`, `activity_generation_config_id`, `type`, `channel`, `status`, `scheduled_at`, `provider_activity_id`, `title`, `description`, `reason_code`, `dispatch_attempts`, `next_dispatch_at`, `closed_at`, `created_by`, `tenant_id`, `project_id`, `commerce_id`, `operator_id`, `route_id` FROM `activities`;
-- drop "activities" table after copying rows
DROP TABLE `activities`;
-- rename temporary table "new_activities" to "activities"
ALTER TABLE `new_activities` RENAME TO `activities`;
-- create index "activity_tenant_id" to table: "activities"
CREATE INDEX `activity_tenant_id` ON `activities` (`tenant_id`);
-- create index "activity_project_id" to table: "activities"
CREATE INDEX `activity_project_id` ON `activities` (`project_id`);
-- create index "activity_tenant_id_project_id_scheduled_at_id_title_commerce_id" to table: "activities"
CREATE INDEX `activity_tenant_id_project_id_scheduled_at_id_title_commerce_id` ON `activities` (`tenant_id`, `project_id`, `scheduled_at`, `id`, `title`, `commerce_id`);
-- create index "activity_tenant_id_project_id_status_scheduled_at_id" to table: "activities"
CREATE INDEX `activity_tenant_id_project_id_status_scheduled_at_id` ON `activities` (`tenant_id`, `project_id`, `status`, `scheduled_at`, `id`);
-- create index "activity_tenant_id_project_id_type_scheduled_at_id" to table: "activities"
CREATE INDEX `activity_tenant_id_project_id_type_scheduled_at_id` ON `activities` (`tenant_id`, `project_id`, `type`, `scheduled_at`, `id`);
-- create index "activity_tenant_id_project_id_channel_scheduled_at_id" to table: "activities"
CREATE INDEX `activity_tenant_id_project_id_channel_scheduled_at_id` ON `activities` (`tenant_id`, `project_id`, `channel`, `scheduled_at`, `id`);
-- create index "activity_tenant_id_project_id_commerce_id_scheduled_at_id" to table: "activities"
CREATE INDEX `activity_tenant_id_project_id_commerce_id_scheduled_at_id` ON `activities` (`tenant_id`, `project_id`, `commerce_id`, `scheduled_at`, `id`);
-- create index "activity_tenant_id_type_scheduled_at_id" to table: "activities"
CREATE INDEX `activity_tenant_id_type_scheduled_at_id` ON `activities` (`tenant_id`, `type`, `scheduled_at`, `id`);
-- create index "activity_tenant_id_provider_activity_id" to table: "activities"
CREATE UNIQUE INDEX `activity_tenant_id_provider_activity_id` ON `activities` (`tenant_id`, `provider_activity_id`) WHERE provider_activity_id IS NOT NULL;
-- create index "activity_status_next_dispatch_at" to table: "activities"
CREATE INDEX `activity_status_next_dispatch_at` ON `activities` (`status`, `next_dispatch_at`);
-- create index "activity_status_scheduled_at" to table: "activities"
CREATE INDEX `activity_status_scheduled_at` ON `activities` (`status`, `scheduled_at`);
-- create index "activity_status_expires_at" to table: "activities"
CREATE INDEX `activity_status_expires_at` ON `activities` (`status`, `expires_at`);
-- create index "activity_commerce_id" to table: "activities"
CREATE INDEX `activity_commerce_id` ON `activities` (`commerce_id`);
-- create index "activity_operator_id" to table: "activities"
CREATE INDEX `activity_operator_id` ON `activities` (`operator_id`);
-- create index "activity_route_id" to table: "activities"
CREATE INDEX `activity_route_id` ON `activities` (`route_id`);
-- create "generation_decisions" table
CREATE TABLE `generation_decisions` (`id` uuid NOT NULL, `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `activity_generation_config_id` uuid NOT NULL, `rule_id` uuid NOT NULL, `commerce_id` uuid NOT NULL, `trigger` text NOT NULL, `stage` text NOT NULL, `status_code` text NOT NULL, `entered_at` datetime NOT NULL, `kind` text NOT NULL, `reason` text NULL, `detail` text NOT NULL, `activity_id` uuid NULL, `transition_id` uuid NULL, `decided_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- create index "generationdecision_rule_id_commerce_id_entered_at" to table: "generation_decisions"
CREATE UNIQUE INDEX `generationdecision_rule_id_commerce_id_entered_at` ON `generation_decisions` (`rule_id`, `commerce_id`, `entered_at`);
-- create index "generationdecision_tenant_id_ac_dab5dc564ba2dd39b8c514281d0ac53c" to table: "generation_decisions"
CREATE INDEX `generationdecision_tenant_id_ac_dab5dc564ba2dd39b8c514281d0ac53c` ON `generation_decisions` (`tenant_id`, `activity_generation_config_id`, `decided_at`, `id`);
-- create index "generationdecision_tenant_id_commerce_id_decided_at_id" to table: "generation_decisions"
CREATE INDEX `generationdecision_tenant_id_commerce_id_decided_at_id` ON `generation_decisions` (`tenant_id`, `commerce_id`, `decided_at`, `id`);
-- create "generation_outbox" table
CREATE TABLE `generation_outbox` (`id` uuid NOT NULL, `tenant_id` uuid NOT NULL, `created_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- create index "generationoutbox_created_at_id" to table: "generation_outbox"
CREATE INDEX `generationoutbox_created_at_id` ON `generation_outbox` (`created_at`, `id`);
-- enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

-- +goose Down
-- reverse: create index "generationoutbox_created_at_id" to table: "generation_outbox"
DROP INDEX `generationoutbox_created_at_id`;
-- reverse: create "generation_outbox" table
DROP TABLE `generation_outbox`;
-- reverse: create index "generationdecision_tenant_id_commerce_id_decided_at_id" to table: "generation_decisions"
DROP INDEX `generationdecision_tenant_id_commerce_id_decided_at_id`;
-- reverse: create index "generationdecision_tenant_id_ac_dab5dc564ba2dd39b8c514281d0ac53c" to table: "generation_decisions"
DROP INDEX `generationdecision_tenant_id_ac_dab5dc564ba2dd39b8c514281d0ac53c`;
-- reverse: create index "generationdecision_rule_id_commerce_id_entered_at" to table: "generation_decisions"
DROP INDEX `generationdecision_rule_id_commerce_id_entered_at`;
-- reverse: create "generation_decisions" table
DROP TABLE `generation_decisions`;
-- reverse: create index "activity_route_id" to table: "activities"
DROP INDEX `activity_route_id`;
-- reverse: create index "activity_operator_id" to table: "activities"
DROP INDEX `activity_operator_id`;
-- reverse: create index "activity_commerce_id" to table: "activities"
DROP INDEX `activity_commerce_id`;
-- reverse: create index "activity_status_expires_at" to table: "activities"
DROP INDEX `activity_status_expires_at`;
-- reverse: create index "activity_status_scheduled_at" to table: "activities"
DROP INDEX `activity_status_scheduled_at`;
-- reverse: create index "activity_status_next_dispatch_at" to table: "activities"
DROP INDEX `activity_status_next_dispatch_at`;
-- reverse: create index "activity_tenant_id_provider_activity_id" to table: "activities"
DROP INDEX `activity_tenant_id_provider_activity_id`;
-- reverse: create index "activity_tenant_id_type_scheduled_at_id" to table: "activities"
DROP INDEX `activity_tenant_id_type_scheduled_at_id`;
-- reverse: create index "activity_tenant_id_project_id_commerce_id_scheduled_at_id" to table: "activities"
DROP INDEX `activity_tenant_id_project_id_commerce_id_scheduled_at_id`;
-- reverse: create index "activity_tenant_id_project_id_channel_scheduled_at_id" to table: "activities"
DROP INDEX `activity_tenant_id_project_id_channel_scheduled_at_id`;
-- reverse: create index "activity_tenant_id_project_id_type_scheduled_at_id" to table: "activities"
DROP INDEX `activity_tenant_id_project_id_type_scheduled_at_id`;
-- reverse: create index "activity_tenant_id_project_id_status_scheduled_at_id" to table: "activities"
DROP INDEX `activity_tenant_id_project_id_status_scheduled_at_id`;
-- reverse: create index "activity_tenant_id_project_id_scheduled_at_id_title_commerce_id" to table: "activities"
DROP INDEX `activity_tenant_id_project_id_scheduled_at_id_title_commerce_id`;
-- reverse: create index "activity_project_id" to table: "activities"
DROP INDEX `activity_project_id`;
-- reverse: create index "activity_tenant_id" to table: "activities"
DROP INDEX `activity_tenant_id`;
-- reverse: create "new_activities" table
DROP TABLE `new_activities`;
