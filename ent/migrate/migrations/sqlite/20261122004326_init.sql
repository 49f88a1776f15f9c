-- +goose Up
-- create "api_keys" table
CREATE TABLE `api_keys` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `key_prefix` text NOT NULL, `key_hash` text NOT NULL, `scope` text NOT NULL, `permissions` json NOT NULL, `is_active` bool NOT NULL DEFAULT (true), `expires_at` datetime NULL, `last_used_at` datetime NULL, `revoked_at` datetime NULL, `tenant_id` uuid NOT NULL, `user_id` uuid NOT NULL, `project_id` uuid NULL, PRIMARY KEY (`id`), CONSTRAINT `api_keys_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `api_keys_users_owner` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE NO ACTION, CONSTRAINT `api_keys_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE SET NULL);
-- create index "apikey_tenant_id" to table: "api_keys"
CREATE INDEX `apikey_tenant_id` ON `api_keys` (`tenant_id`);
-- create index "apikey_key_hash" to table: "api_keys"
CREATE UNIQUE INDEX `apikey_key_hash` ON `api_keys` (`key_hash`);
-- create index "apikey_tenant_id_user_id" to table: "api_keys"
CREATE INDEX `apikey_tenant_id_user_id` ON `api_keys` (`tenant_id`, `user_id`);
-- create "activation_configs" table
CREATE TABLE `activation_configs` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `archived_at` datetime NULL, `name` text NOT NULL, `description` text NULL, `source_table` text NOT NULL, `source_columns` json NULL, `date_column` text NOT NULL, `aggregation_method` text NOT NULL, `is_active` bool NOT NULL DEFAULT (true), `updated_by` uuid NULL, `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `activity_generation_config_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `activation_configs_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `activation_configs_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `activation_configs_activity_generation_configs_activation_config` FOREIGN KEY (`activity_generation_config_id`) REFERENCES `activity_generation_configs` (`id`) ON DELETE CASCADE);
-- create index "activation_configs_activity_generation_config_id_key" to table: "activation_configs"
CREATE UNIQUE INDEX `activation_configs_activity_generation_config_id_key` ON `activation_configs` (`activity_generation_config_id`);
-- create index "activationconfig_tenant_id" to table: "activation_configs"
CREATE INDEX `activationconfig_tenant_id` ON `activation_configs` (`tenant_id`);
-- create index "activationconfig_project_id" to table: "activation_configs"
CREATE INDEX `activationconfig_project_id` ON `activation_configs` (`project_id`);
-- create "activation_moments" table
CREATE TABLE `activation_moments` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `status_code` text NOT NULL, `min_actions` integer NULL, `window_days` integer NULL, `time_window` integer NULL, `priority` integer NOT NULL DEFAULT (0), `is_active` bool NOT NULL DEFAULT (true), `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `activation_config_id` uuid NOT NULL, `user_retention_status_config_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `activation_moments_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `activation_moments_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `activation_moments_activation_configs_activation_config` FOREIGN KEY (`activation_config_id`) REFERENCES `activation_configs` (`id`) ON DELETE CASCADE, CONSTRAINT `activation_moments_retention_st_3713f2bcec803cd02061c04439616fff` FOREIGN KEY (`user_retention_status_config_id`) REFERENCES `retention_status_configs` (`id`) ON DELETE NO ACTION);
-- create index "activationmoment_tenant_id" to table: "activation_moments"
CREATE INDEX `activationmoment_tenant_id` ON `activation_moments` (`tenant_id`);
-- create index "activationmoment_project_id" to table: "activation_moments"
CREATE INDEX `activationmoment_project_id` ON `activation_moments` (`project_id`);
-- create index "activationmoment_activation_config_id_priority" to table: "activation_moments"
CREATE INDEX `activationmoment_activation_config_id_priority` ON `activation_moments` (`activation_config_id`, `priority`);
-- create index "activationmoment_user_retention_status_config_id" to table: "activation_moments"
CREATE INDEX `activationmoment_user_retention_status_config_id` ON `activation_moments` (`user_retention_status_config_id`);
-- create "activities" table
CREATE TABLE `activities` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `activity_generation_config_id` uuid NULL, `type` text NOT NULL, `channel` text NOT NULL, `status` text NOT NULL DEFAULT ('READY'), `scheduled_at` datetime NOT NULL, `provider_activity_id` text NULL, `title` text NULL, `description` text NULL, `reason_code` text NULL, `dispatch_attempts` integer NOT NULL DEFAULT (0), `next_dispatch_at` datetime NULL, `closed_at` datetime NULL, `created_by` uuid NULL, `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `commerce_id` uuid NOT NULL, `operator_id` uuid NULL, `route_id` uuid NULL, PRIMARY KEY (`id`), CONSTRAINT `activities_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `activities_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `activities_commerces_commerce` FOREIGN KEY (`commerce_id`) REFERENCES `commerces` (`id`) ON DELETE NO ACTION, CONSTRAINT `activities_operators_operator` FOREIGN KEY (`operator_id`) REFERENCES `operators` (`id`) ON DELETE SET NULL, CONSTRAINT `activities_routes_route` FOREIGN KEY (`route_id`) REFERENCES `routes` (`id`) ON DELETE SET NULL);
-- create index "activity_tenant_id" to table: "activities"
CREATE INDEX `activity_tenant_id` ON `activities` (`tenant_id`);
-- create index "activity_project_id" to table: "activities"
CREATE INDEX `activity_project_id` ON `activities` (`project_id`);
-- create index "activity_project_id_status_scheduled_at" to table: "activities"
CREATE INDEX `activity_project_id_status_scheduled_at` ON `activities` (`project_id`, `status`, `scheduled_at`);
-- create index "activity_project_id_commerce_id" to table: "activities"
CREATE INDEX `activity_project_id_commerce_id` ON `activities` (`project_id`, `commerce_id`);
-- create index "activity_project_id_scheduled_at" to table: "activities"
CREATE INDEX `activity_project_id_scheduled_at` ON `activities` (`project_id`, `scheduled_at`);
-- create index "activity_tenant_id_provider_activity_id" to table: "activities"
CREATE UNIQUE INDEX `activity_tenant_id_provider_activity_id` ON `activities` (`tenant_id`, `provider_activity_id`) WHERE provider_activity_id IS NOT NULL;
-- create index "activity_status_next_dispatch_at" to table: "activities"
CREATE INDEX `activity_status_next_dispatch_at` ON `activities` (`status`, `next_dispatch_at`);
-- create index "activity_status_scheduled_at" to table: "activities"
CREATE INDEX `activity_status_scheduled_at` ON `activities` (`status`, `scheduled_at`);
-- create index "activity_commerce_id" to table: "activities"
CREATE INDEX `activity_commerce_id` ON `activities` (`commerce_id`);
-- create index "activity_operator_id" to table: "activities"
CREATE INDEX `activity_operator_id` ON `activities` (`operator_id`);
-- create index "activity_route_id" to table: "activities"
CREATE INDEX `activity_route_id` ON `activities` (`route_id`);
-- create "activity_attributes" table
CREATE TABLE `activity_attributes` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `key` text NOT NULL, `value` text NOT NULL, `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `activity_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `activity_attributes_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `activity_attributes_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `activity_attributes_activities_activity` FOREIGN KEY (`activity_id`) REFERENCES `activities` (`id`) ON DELETE CASCADE);
-- create index "activityattribute_tenant_id" to table: "activity_attributes"
CREATE INDEX `activityattribute_tenant_id` ON `activity_attributes` (`tenant_id`);
-- create index "activityattribute_project_id" to table: "activity_attributes"
CREATE INDEX `activityattribute_project_id` ON `activity_attributes` (`project_id`);
-- create index "activityattribute_activity_id_key" to table: "activity_attributes"
CREATE UNIQUE INDEX `activityattribute_activity_id_key` ON `activity_attributes` (`activity_id`, `key`);
-- create "activity_generation_configs" table
CREATE TABLE `activity_generation_configs` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `archived_at` datetime NULL, `name` text NOT NULL, `description` text NOT NULL DEFAULT (''), `status` text NOT NULL DEFAULT ('draft'), `config_hashes` json NULL, `updated_by` uuid NULL, `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `audience_id` uuid NULL, PRIMARY KEY (`id`), CONSTRAINT `activity_generation_configs_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `activity_generation_configs_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `activity_generation_configs_audiences_audience` FOREIGN KEY (`audience_id`) REFERENCES `audiences` (`id`) ON DELETE SET NULL);
-- create index "activitygenerationconfig_tenant_id" to table: "activity_generation_configs"
CREATE INDEX `activitygenerationconfig_tenant_id` ON `activity_generation_configs` (`tenant_id`);
-- create index "activitygenerationconfig_project_id" to table: "activity_generation_configs"
CREATE INDEX `activitygenerationconfig_project_id` ON `activity_generation_configs` (`project_id`);
-- create index "activitygenerationconfig_project_id_name" to table: "activity_generation_configs"
CREATE UNIQUE INDEX `activitygenerationconfig_project_id_name` ON `activity_generation_configs` (`project_id`, `name`) WHERE archived_at IS NULL;
-- create index "activitygenerationconfig_audience_id" to table: "activity_generation_configs"
CREATE INDEX `activitygenerationconfig_audience_id` ON `activity_generation_configs` (`audience_id`);
-- create "activity_reason_configs" table
CREATE TABLE `activity_reason_configs` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `code` text NOT NULL, `label` text NOT NULL, `is_active` bool NOT NULL DEFAULT (true), `tenant_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `activity_reason_configs_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION);
-- create index "activityreasonconfig_tenant_id" to table: "activity_reason_configs"
CREATE INDEX `activityreasonconfig_tenant_id` ON `activity_reason_configs` (`tenant_id`);
-- create index "activityreasonconfig_tenant_id_code" to table: "activity_reason_configs"
CREATE UNIQUE INDEX `activityreasonconfig_tenant_id_code` ON `activity_reason_configs` (`tenant_id`, `code`);
-- create "activity_results" table
CREATE TABLE `activity_results` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `project_id` uuid NULL, `commerce_external_id` text NULL, `provider_activity_id` text NULL, `source` text NOT NULL, `result_status` text NOT NULL, `external_status` text NULL, `occurred_at` datetime NOT NULL, `result_code` text NOT NULL, `comment` text NULL, `contact_type` text NULL, `operator_external_id` text NULL, `future_scheduled_at` datetime NULL, `payload` json NULL, `raw_payload` json NULL, `hard_override` bool NOT NULL DEFAULT (false), `submitted_by` uuid NULL, `activity_id` uuid NULL, `tenant_id` uuid NOT NULL, `commerce_id` uuid NULL, PRIMARY KEY (`id`), CONSTRAINT `activity_results_activities_result` FOREIGN KEY (`activity_id`) REFERENCES `activities` (`id`) ON DELETE SET NULL, CONSTRAINT `activity_results_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `activity_results_commerces_commerce` FOREIGN KEY (`commerce_id`) REFERENCES `commerces` (`id`) ON DELETE SET NULL);
-- create index "activity_results_activity_id_key" to table: "activity_results"
CREATE UNIQUE INDEX `activity_results_activity_id_key` ON `activity_results` (`activity_id`);
-- create index "activityresult_tenant_id" to table: "activity_results"
CREATE INDEX `activityresult_tenant_id` ON `activity_results` (`tenant_id`);
-- create index "activityresult_tenant_id_updated_at_id" to table: "activity_results"
CREATE INDEX `activityresult_tenant_id_updated_at_id` ON `activity_results` (`tenant_id`, `updated_at`, `id`);
-- create index "activityresult_project_id" to table: "activity_results"
CREATE INDEX `activityresult_project_id` ON `activity_results` (`project_id`);
-- create index "activityresult_commerce_id" to table: "activity_results"
CREATE INDEX `activityresult_commerce_id` ON `activity_results` (`commerce_id`);
-- create "activity_status_events" table
CREATE TABLE `activity_status_events` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `event_type` text NOT NULL, `from_status` text NULL, `to_status` text NOT NULL, `occurred_at` datetime NOT NULL, `actor_id` uuid NULL, `detail` json NULL, `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `activity_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `activity_status_events_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `activity_status_events_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `activity_status_events_activities_activity` FOREIGN KEY (`activity_id`) REFERENCES `activities` (`id`) ON DELETE CASCADE);
-- create index "activitystatusevent_tenant_id" to table: "activity_status_events"
CREATE INDEX `activitystatusevent_tenant_id` ON `activity_status_events` (`tenant_id`);
-- create index "activitystatusevent_project_id" to table: "activity_status_events"
CREATE INDEX `activitystatusevent_project_id` ON `activity_status_events` (`project_id`);
-- create index "activitystatusevent_activity_id_occurred_at" to table: "activity_status_events"
CREATE INDEX `activitystatusevent_activity_id_occurred_at` ON `activity_status_events` (`activity_id`, `occurred_at`);
-- create "audiences" table
CREATE TABLE `audiences` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `archived_at` datetime NULL, `name` text NOT NULL, `description` text NULL, `is_active` bool NOT NULL DEFAULT (true), `is_root` bool NOT NULL DEFAULT (false), `owner_id` uuid NULL, `updated_by` uuid NULL, `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `audiences_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `audiences_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION);
-- create index "audience_tenant_id" to table: "audiences"
CREATE INDEX `audience_tenant_id` ON `audiences` (`tenant_id`);
-- create index "audience_project_id" to table: "audiences"
CREATE INDEX `audience_project_id` ON `audiences` (`project_id`);
-- create index "audience_one_root_per_project" to table: "audiences"
CREATE UNIQUE INDEX `audience_one_root_per_project` ON `audiences` (`project_id`) WHERE is_root = true;
-- create "audience_compositions" table
CREATE TABLE `audience_compositions` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `set_operator` text NOT NULL, `sort_order` integer NOT NULL DEFAULT (0), `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `audience_id` uuid NOT NULL, `operand_audience_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `audience_compositions_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `audience_compositions_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `audience_compositions_audiences_audience` FOREIGN KEY (`audience_id`) REFERENCES `audiences` (`id`) ON DELETE NO ACTION, CONSTRAINT `audience_compositions_audiences_operand` FOREIGN KEY (`operand_audience_id`) REFERENCES `audiences` (`id`) ON DELETE NO ACTION);
-- create index "audiencecomposition_tenant_id" to table: "audience_compositions"
CREATE INDEX `audiencecomposition_tenant_id` ON `audience_compositions` (`tenant_id`);
-- create index "audiencecomposition_project_id" to table: "audience_compositions"
CREATE INDEX `audiencecomposition_project_id` ON `audience_compositions` (`project_id`);
-- create index "audiencecomposition_audience_id_operand_audience_id" to table: "audience_compositions"
CREATE UNIQUE INDEX `audiencecomposition_audience_id_operand_audience_id` ON `audience_compositions` (`audience_id`, `operand_audience_id`);
-- create index "audiencecomposition_operand_audience_id" to table: "audience_compositions"
CREATE INDEX `audiencecomposition_operand_audience_id` ON `audience_compositions` (`operand_audience_id`);
-- create "catalog_columns" table
CREATE TABLE `catalog_columns` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `type` text NOT NULL, `is_repeated` bool NOT NULL DEFAULT (false), `is_identity` bool NOT NULL DEFAULT (false), `is_default_time_reference` bool NOT NULL DEFAULT (false), `description` text NULL, `sort_order` integer NOT NULL DEFAULT (0), `tenant_id` uuid NOT NULL, `table_id` uuid NOT NULL, `parent_id` uuid NULL, PRIMARY KEY (`id`), CONSTRAINT `catalog_columns_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `catalog_columns_catalog_tables_table` FOREIGN KEY (`table_id`) REFERENCES `catalog_tables` (`id`) ON DELETE CASCADE, CONSTRAINT `catalog_columns_catalog_columns_parent` FOREIGN KEY (`parent_id`) REFERENCES `catalog_columns` (`id`) ON DELETE CASCADE);
-- create index "catalogcolumn_tenant_id" to table: "catalog_columns"
CREATE INDEX `catalogcolumn_tenant_id` ON `catalog_columns` (`tenant_id`);
-- create index "catalogcolumn_table_id_parent_id_name" to table: "catalog_columns"
CREATE UNIQUE INDEX `catalogcolumn_table_id_parent_id_name` ON `catalog_columns` (`table_id`, `parent_id`, `name`);
-- create index "catalogcolumn_table_id_name" to table: "catalog_columns"
CREATE UNIQUE INDEX `catalogcolumn_table_id_name` ON `catalog_columns` (`table_id`, `name`) WHERE parent_id IS NULL;
-- create index "catalogcolumn_parent_id" to table: "catalog_columns"
CREATE INDEX `catalogcolumn_parent_id` ON `catalog_columns` (`parent_id`);
-- create "catalog_semi_joins" table
CREATE TABLE `catalog_semi_joins` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `on_keys` json NOT NULL, `tenant_id` uuid NOT NULL, `from_table_id` uuid NOT NULL, `to_table_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `catalog_semi_joins_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `catalog_semi_joins_catalog_tables_from_table` FOREIGN KEY (`from_table_id`) REFERENCES `catalog_tables` (`id`) ON DELETE CASCADE, CONSTRAINT `catalog_semi_joins_catalog_tables_to_table` FOREIGN KEY (`to_table_id`) REFERENCES `catalog_tables` (`id`) ON DELETE CASCADE);
-- create index "catalogsemijoin_tenant_id" to table: "catalog_semi_joins"
CREATE INDEX `catalogsemijoin_tenant_id` ON `catalog_semi_joins` (`tenant_id`);
-- create index "catalogsemijoin_from_table_id_name" to table: "catalog_semi_joins"
CREATE UNIQUE INDEX `catalogsemijoin_from_table_id_name` ON `catalog_semi_joins` (`from_table_id`, `name`);
-- create index "catalogsemijoin_to_table_id" to table: "catalog_semi_joins"
CREATE INDEX `catalogsemijoin_to_table_id` ON `catalog_semi_joins` (`to_table_id`);
-- create "catalog_tables" table
CREATE TABLE `catalog_tables` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `description` text NULL, `purpose` text NOT NULL DEFAULT ('OTHER'), `default_time_reference_column` text NULL, `tenant_id` uuid NOT NULL, `dataset_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `catalog_tables_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `catalog_tables_tenant_datasets_dataset` FOREIGN KEY (`dataset_id`) REFERENCES `tenant_datasets` (`id`) ON DELETE CASCADE);
-- create index "catalogtable_tenant_id" to table: "catalog_tables"
CREATE INDEX `catalogtable_tenant_id` ON `catalog_tables` (`tenant_id`);
-- create index "catalogtable_dataset_id_name" to table: "catalog_tables"
CREATE UNIQUE INDEX `catalogtable_dataset_id_name` ON `catalog_tables` (`dataset_id`, `name`);
-- create "channel_definitions" table
CREATE TABLE `channel_definitions` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `channel` text NOT NULL, `template` text NULL, `sender` text NULL, `rate_per_minute` integer NULL, `settings` json NULL, `is_active` bool NOT NULL DEFAULT (true), `tenant_id` uuid NOT NULL, `provider_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `channel_definitions_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `channel_definitions_dispatch_providers_provider` FOREIGN KEY (`provider_id`) REFERENCES `dispatch_providers` (`id`) ON DELETE CASCADE);
-- create index "channeldefinition_tenant_id" to table: "channel_definitions"
CREATE INDEX `channeldefinition_tenant_id` ON `channel_definitions` (`tenant_id`);
-- create index "channeldefinition_provider_id_name" to table: "channel_definitions"
CREATE UNIQUE INDEX `channeldefinition_provider_id_name` ON `channel_definitions` (`provider_id`, `name`);
-- create "commerces" table
CREATE TABLE `commerces` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `archived_at` datetime NULL, `external_id` text NULL, `name` text NOT NULL, `tax_id` text NULL, `segment` text NULL, `is_active` bool NOT NULL DEFAULT (true), `metadata` json NULL, `tenant_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `commerces_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION);
-- create index "commerce_tenant_id" to table: "commerces"
CREATE INDEX `commerce_tenant_id` ON `commerces` (`tenant_id`);
-- create index "commerce_tenant_id_external_id" to table: "commerces"
CREATE UNIQUE INDEX `commerce_tenant_id_external_id` ON `commerces` (`tenant_id`, `external_id`) WHERE archived_at IS NULL AND external_id IS NOT NULL;
-- create index "commerce_tenant_id_name" to table: "commerces"
CREATE INDEX `commerce_tenant_id_name` ON `commerces` (`tenant_id`, `name`);
-- create "commerce_addresses" table
CREATE TABLE `commerce_addresses` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `source` text NOT NULL, `address_alias` text NULL, `is_primary` bool NOT NULL DEFAULT (false), `country_code` text NULL, `region` text NULL, `commune` text NULL, `city` text NULL, `street` text NULL, `street_number` text NULL, `unit` text NULL, `formatted_address` text NULL, `latitude` real NULL, `longitude` real NULL, `is_active` bool NOT NULL DEFAULT (true), `tenant_id` uuid NOT NULL, `commerce_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `commerce_addresses_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `commerce_addresses_commerces_commerce` FOREIGN KEY (`commerce_id`) REFERENCES `commerces` (`id`) ON DELETE CASCADE);
-- create index "commerceaddress_tenant_id" to table: "commerce_addresses"
CREATE INDEX `commerceaddress_tenant_id` ON `commerce_addresses` (`tenant_id`);
-- create index "commerceaddress_commerce_id" to table: "commerce_addresses"
CREATE INDEX `commerceaddress_commerce_id` ON `commerce_addresses` (`commerce_id`);
-- create index "commerceaddress_commerce_id_primary" to table: "commerce_addresses"
CREATE UNIQUE INDEX `commerceaddress_commerce_id_primary` ON `commerce_addresses` (`commerce_id`) WHERE is_primary = true AND is_active = true;
-- create "commerce_contacts" table
CREATE TABLE `commerce_contacts` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `contact_type` text NOT NULL, `value` text NOT NULL, `source` text NOT NULL, `is_primary` bool NOT NULL DEFAULT (false), `is_active` bool NOT NULL DEFAULT (true), `tenant_id` uuid NOT NULL, `commerce_user_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `commerce_contacts_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `commerce_contacts_commerce_users_commerce_user` FOREIGN KEY (`commerce_user_id`) REFERENCES `commerce_users` (`id`) ON DELETE CASCADE);
-- create index "commercecontact_tenant_id" to table: "commerce_contacts"
CREATE INDEX `commercecontact_tenant_id` ON `commerce_contacts` (`tenant_id`);
-- create index "commercecontact_commerce_user_id" to table: "commerce_contacts"
CREATE INDEX `commercecontact_commerce_user_id` ON `commerce_contacts` (`commerce_user_id`);
-- create index "commercecontact_commerce_user_id_contact_type_primary" to table: "commerce_contacts"
CREATE UNIQUE INDEX `commercecontact_commerce_user_id_contact_type_primary` ON `commerce_contacts` (`commerce_user_id`, `contact_type`) WHERE is_primary = true AND is_active = true;
-- create "commerce_lifecycle_snapshots" table
CREATE TABLE `commerce_lifecycle_snapshots` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `external_id` text NULL, `code` text NOT NULL, `label` text NOT NULL, `stage` text NOT NULL, `last_computed_at` datetime NOT NULL, `state_changed_at` datetime NOT NULL, `tenant_id` uuid NOT NULL, `commerce_id` uuid NOT NULL, `activity_generation_config_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `commerce_lifecycle_snapshots_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `commerce_lifecycle_snapshots_commerces_commerce` FOREIGN KEY (`commerce_id`) REFERENCES `commerces` (`id`) ON DELETE CASCADE, CONSTRAINT `commerce_lifecycle_snapshots_ac_2576536f71b99810e6fef20387235fa4` FOREIGN KEY (`activity_generation_config_id`) REFERENCES `activity_generation_configs` (`id`) ON DELETE CASCADE);
-- create index "commercelifecyclesnapshot_tenant_id" to table: "commerce_lifecycle_snapshots"
CREATE INDEX `commercelifecyclesnapshot_tenant_id` ON `commerce_lifecycle_snapshots` (`tenant_id`);
-- create index "commercelifecyclesnapshot_comme_a7e477696b0597cb09e6460b1ad54105" to table: "commerce_lifecycle_snapshots"
CREATE UNIQUE INDEX `commercelifecyclesnapshot_comme_a7e477696b0597cb09e6460b1ad54105` ON `commerce_lifecycle_snapshots` (`commerce_id`, `activity_generation_config_id`);
-- create index "commercelifecyclesnapshot_tenant_id_state_changed_at" to table: "commerce_lifecycle_snapshots"
CREATE INDEX `commercelifecyclesnapshot_tenant_id_state_changed_at` ON `commerce_lifecycle_snapshots` (`tenant_id`, `state_changed_at`);
-- create index "commercelifecyclesnapshot_tenant_id_code_state_changed_at" to table: "commerce_lifecycle_snapshots"
CREATE INDEX `commercelifecyclesnapshot_tenant_id_code_state_changed_at` ON `commerce_lifecycle_snapshots` (`tenant_id`, `code`, `state_changed_at`);
-- create index "commercelifecyclesnapshot_tenant_id_stage_state_changed_at" to table: "commerce_lifecycle_snapshots"
CREATE INDEX `commercelifecyclesnapshot_tenant_id_stage_state_changed_at` ON `commerce_lifecycle_snapshots` (`tenant_id`, `stage`, `state_changed_at`);
-- create index "commercelifecyclesnapshot_tenan_38506f300c87d44862236faf271145bd" to table: "commerce_lifecycle_snapshots"
CREATE INDEX `commercelifecyclesnapshot_tenan_38506f300c87d44862236faf271145bd` ON `commerce_lifecycle_snapshots` (`tenant_id`, `activity_generation_config_id`, `state_changed_at`);
-- create index "commercelifecyclesnapshot_tenant_id_external_id" to table: "commerce_lifecycle_snapshots"
CREATE INDEX `commercelifecyclesnapshot_tenant_id_external_id` ON `commerce_lifecycle_snapshots` (`tenant_id`, `external_id`);
-- create "commerce_users" table
CREATE TABLE `commerce_users` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NULL, `external_id` text NULL, `source` text NOT NULL DEFAULT ('RETEN'), `is_active` bool NOT NULL DEFAULT (true), `tenant_id` uuid NOT NULL, `commerce_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `commerce_users_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `commerce_users_commerces_commerce` FOREIGN KEY (`commerce_id`) REFERENCES `commerces` (`id`) ON DELETE CASCADE);
-- create index "commerceuser_tenant_id" to table: "commerce_users"
CREATE INDEX `commerceuser_tenant_id` ON `commerce_users` (`tenant_id`);
-- create index "commerceuser_commerce_id_external_id" to table: "commerce_users"
CREATE INDEX `commerceuser_commerce_id_external_id` ON `commerce_users` (`commerce_id`, `external_id`);
-- create "commerce_user_roles" table
CREATE TABLE `commerce_user_roles` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `role` text NOT NULL, `tenant_id` uuid NOT NULL, `commerce_user_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `commerce_user_roles_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `commerce_user_roles_commerce_users_commerce_user` FOREIGN KEY (`commerce_user_id`) REFERENCES `commerce_users` (`id`) ON DELETE CASCADE);
-- create index "commerceuserrole_tenant_id" to table: "commerce_user_roles"
CREATE INDEX `commerceuserrole_tenant_id` ON `commerce_user_roles` (`tenant_id`);
-- create index "commerceuserrole_commerce_user_id_role" to table: "commerce_user_roles"
CREATE UNIQUE INDEX `commerceuserrole_commerce_user_id_role` ON `commerce_user_roles` (`commerce_user_id`, `role`);
-- create "dispatch_configs" table
CREATE TABLE `dispatch_configs` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `channel` text NOT NULL, `max_attempts` integer NOT NULL DEFAULT (3), `retry_backoff_seconds` integer NOT NULL DEFAULT (300), `is_active` bool NOT NULL DEFAULT (true), `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `provider_id` uuid NOT NULL, `channel_definition_id` uuid NULL, PRIMARY KEY (`id`), CONSTRAINT `dispatch_configs_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `dispatch_configs_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `dispatch_configs_dispatch_providers_provider` FOREIGN KEY (`provider_id`) REFERENCES `dispatch_providers` (`id`) ON DELETE NO ACTION, CONSTRAINT `dispatch_configs_channel_definitions_channel_definition` FOREIGN KEY (`channel_definition_id`) REFERENCES `channel_definitions` (`id`) ON DELETE SET NULL);
-- create index "dispatchconfig_tenant_id" to table: "dispatch_configs"
CREATE INDEX `dispatchconfig_tenant_id` ON `dispatch_configs` (`tenant_id`);
-- create index "dispatchconfig_project_id" to table: "dispatch_configs"
CREATE INDEX `dispatchconfig_project_id` ON `dispatch_configs` (`project_id`);
-- create index "dispatchconfig_project_id_channel" to table: "dispatch_configs"
CREATE UNIQUE INDEX `dispatchconfig_project_id_channel` ON `dispatch_configs` (`project_id`, `channel`);
-- create index "dispatchconfig_provider_id" to table: "dispatch_configs"
CREATE INDEX `dispatchconfig_provider_id` ON `dispatch_configs` (`provider_id`);
-- create index "dispatchconfig_channel_definition_id" to table: "dispatch_configs"
CREATE INDEX `dispatchconfig_channel_definition_id` ON `dispatch_configs` (`channel_definition_id`);
-- create "dispatch_providers" table
CREATE TABLE `dispatch_providers` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `channel` text NOT NULL, `kind` text NOT NULL, `credentials_encrypted` blob NULL, `settings` json NULL, `is_active` bool NOT NULL DEFAULT (true), `tenant_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `dispatch_providers_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION);
-- create index "dispatchprovider_tenant_id" to table: "dispatch_providers"
CREATE INDEX `dispatchprovider_tenant_id` ON `dispatch_providers` (`tenant_id`);
-- create index "dispatchprovider_tenant_id_name" to table: "dispatch_providers"
CREATE UNIQUE INDEX `dispatchprovider_tenant_id_name` ON `dispatch_providers` (`tenant_id`, `name`);
-- create "engagement_configs" table
CREATE TABLE `engagement_configs` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `archived_at` datetime NULL, `name` text NOT NULL, `description` text NULL, `source_table` text NOT NULL, `source_columns` json NULL, `date_column` text NOT NULL, `engagement_window_days` integer NOT NULL, `min_lifetime_actions_for_engaged` integer NOT NULL, `counting_method` text NOT NULL, `is_active` bool NOT NULL DEFAULT (true), `updated_by` uuid NULL, `activity_generation_config_id` uuid NOT NULL, `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `engagement_configs_activity_generation_configs_engagement_config` FOREIGN KEY (`activity_generation_config_id`) REFERENCES `activity_generation_configs` (`id`) ON DELETE CASCADE, CONSTRAINT `engagement_configs_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `engagement_configs_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION);
-- create index "engagement_configs_activity_generation_config_id_key" to table: "engagement_configs"
CREATE UNIQUE INDEX `engagement_configs_activity_generation_config_id_key` ON `engagement_configs` (`activity_generation_config_id`);
-- create index "engagementconfig_tenant_id" to table: "engagement_configs"
CREATE INDEX `engagementconfig_tenant_id` ON `engagement_configs` (`tenant_id`);
-- create index "engagementconfig_project_id" to table: "engagement_configs"
CREATE INDEX `engagementconfig_project_id` ON `engagement_configs` (`project_id`);
-- create "engagement_levels" table
CREATE TABLE `engagement_levels` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `status_code` text NOT NULL, `label` text NOT NULL, `min_threshold` integer NOT NULL, `max_threshold` integer NULL, `sort_order` integer NOT NULL DEFAULT (0), `is_active` bool NOT NULL DEFAULT (true), `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `engagement_config_id` uuid NOT NULL, `user_retention_status_config_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `engagement_levels_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `engagement_levels_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `engagement_levels_engagement_configs_engagement_config` FOREIGN KEY (`engagement_config_id`) REFERENCES `engagement_configs` (`id`) ON DELETE CASCADE, CONSTRAINT `engagement_levels_retention_sta_ff4184135ebfd639c637b0ef5ef65324` FOREIGN KEY (`user_retention_status_config_id`) REFERENCES `retention_status_configs` (`id`) ON DELETE NO ACTION);
-- create index "engagementlevel_tenant_id" to table: "engagement_levels"
CREATE INDEX `engagementlevel_tenant_id` ON `engagement_levels` (`tenant_id`);
-- create index "engagementlevel_project_id" to table: "engagement_levels"
CREATE INDEX `engagementlevel_project_id` ON `engagement_levels` (`project_id`);
-- create index "engagementlevel_engagement_config_id_sort_order" to table: "engagement_levels"
CREATE INDEX `engagementlevel_engagement_config_id_sort_order` ON `engagement_levels` (`engagement_config_id`, `sort_order`);
-- create index "engagementlevel_user_retention_status_config_id" to table: "engagement_levels"
CREATE INDEX `engagementlevel_user_retention_status_config_id` ON `engagement_levels` (`user_retention_status_config_id`);
-- create "event_filters" table
CREATE TABLE `event_filters` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `archived_at` datetime NULL, `name` text NOT NULL, `description` text NULL, `is_active` bool NOT NULL DEFAULT (true), `owner_id` uuid NULL, `updated_by` uuid NULL, `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `event_filters_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `event_filters_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION);
-- create index "eventfilter_tenant_id" to table: "event_filters"
CREATE INDEX `eventfilter_tenant_id` ON `event_filters` (`tenant_id`);
-- create index "eventfilter_project_id" to table: "event_filters"
CREATE INDEX `eventfilter_project_id` ON `event_filters` (`project_id`);
-- create "idempotency_records" table
CREATE TABLE `idempotency_records` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `key` text NOT NULL, `method` text NOT NULL, `path` text NOT NULL, `request_hash` text NOT NULL, `status_code` integer NOT NULL, `response_body` blob NULL, `expires_at` datetime NOT NULL, `tenant_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `idempotency_records_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION);
-- create index "idempotencyrecord_tenant_id" to table: "idempotency_records"
CREATE INDEX `idempotencyrecord_tenant_id` ON `idempotency_records` (`tenant_id`);
-- create index "idempotencyrecord_tenant_id_key_method_path" to table: "idempotency_records"
CREATE UNIQUE INDEX `idempotencyrecord_tenant_id_key_method_path` ON `idempotency_records` (`tenant_id`, `key`, `method`, `path`);
-- create index "idempotencyrecord_expires_at" to table: "idempotency_records"
CREATE INDEX `idempotencyrecord_expires_at` ON `idempotency_records` (`expires_at`);
-- create "memberships" table
CREATE TABLE `memberships` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `roles` json NOT NULL, `tenant_id` uuid NOT NULL, `user_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `memberships_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `memberships_users_user` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE NO ACTION);
-- create index "membership_tenant_id" to table: "memberships"
CREATE INDEX `membership_tenant_id` ON `memberships` (`tenant_id`);
-- create index "membership_tenant_id_user_id" to table: "memberships"
CREATE UNIQUE INDEX `membership_tenant_id_user_id` ON `memberships` (`tenant_id`, `user_id`);
-- create index "membership_user_id" to table: "memberships"
CREATE INDEX `membership_user_id` ON `memberships` (`user_id`);
-- create "operators" table
CREATE TABLE `operators` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `archived_at` datetime NULL, `name` text NOT NULL, `email` text NULL, `email_key` text NULL, `phone` text NULL, `type` text NOT NULL, `external_id` text NULL, `is_active` bool NOT NULL DEFAULT (true), `is_placeholder` bool NOT NULL DEFAULT (false), `metadata` json NULL, `tenant_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `operators_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION);
-- create index "operator_tenant_id" to table: "operators"
CREATE INDEX `operator_tenant_id` ON `operators` (`tenant_id`);
-- create index "operator_tenant_id_email_key" to table: "operators"
CREATE UNIQUE INDEX `operator_tenant_id_email_key` ON `operators` (`tenant_id`, `email_key`) WHERE archived_at IS NULL AND email_key IS NOT NULL;
-- create index "operator_tenant_id_type_external_id" to table: "operators"
CREATE UNIQUE INDEX `operator_tenant_id_type_external_id` ON `operators` (`tenant_id`, `type`, `external_id`) WHERE archived_at IS NULL AND external_id IS NOT NULL;
-- create "projects" table
CREATE TABLE `projects` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `name_key` text NOT NULL, `is_main` bool NOT NULL DEFAULT (false), `tenant_id` uuid NOT NULL, `root_audience_id` uuid NULL, PRIMARY KEY (`id`), CONSTRAINT `projects_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `projects_audiences_root_audience` FOREIGN KEY (`root_audience_id`) REFERENCES `audiences` (`id`) ON DELETE SET NULL);
-- create index "project_tenant_id" to table: "projects"
CREATE INDEX `project_tenant_id` ON `projects` (`tenant_id`);
-- create index "project_tenant_id_name_key" to table: "projects"
CREATE UNIQUE INDEX `project_tenant_id_name_key` ON `projects` (`tenant_id`, `name_key`);
-- create index "project_one_main_per_tenant" to table: "projects"
CREATE UNIQUE INDEX `project_one_main_per_tenant` ON `projects` (`tenant_id`) WHERE is_main = true;
-- create "query_blocks" table
CREATE TABLE `query_blocks` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `sort_order` integer NOT NULL, `set_operator` text NULL, `from_clause` json NOT NULL, `select_clause` json NOT NULL, `time_window` json NULL, `where_clause` json NULL, `group_by` json NULL, `having` json NULL, `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `audience_id` uuid NULL, `event_filter_id` uuid NULL, PRIMARY KEY (`id`), CONSTRAINT `query_blocks_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `query_blocks_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `query_blocks_audiences_audience` FOREIGN KEY (`audience_id`) REFERENCES `audiences` (`id`) ON DELETE SET NULL, CONSTRAINT `query_blocks_event_filters_event_filter` FOREIGN KEY (`event_filter_id`) REFERENCES `event_filters` (`id`) ON DELETE SET NULL);
-- create index "queryblock_tenant_id" to table: "query_blocks"
CREATE INDEX `queryblock_tenant_id` ON `query_blocks` (`tenant_id`);
-- create index "queryblock_project_id" to table: "query_blocks"
CREATE INDEX `queryblock_project_id` ON `query_blocks` (`project_id`);
-- create index "queryblock_audience_id_sort_order" to table: "query_blocks"
CREATE INDEX `queryblock_audience_id_sort_order` ON `query_blocks` (`audience_id`, `sort_order`);
-- create index "queryblock_event_filter_id_sort_order" to table: "query_blocks"
CREATE INDEX `queryblock_event_filter_id_sort_order` ON `query_blocks` (`event_filter_id`, `sort_order`);
-- create "refresh_tokens" table
CREATE TABLE `refresh_tokens` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `token_hash` text NOT NULL, `family_id` uuid NOT NULL, `expires_at` datetime NOT NULL, `revoked_at` datetime NULL, `replaced_by` uuid NULL, `user_agent` text NOT NULL DEFAULT (''), `ip` text NOT NULL DEFAULT (''), `user_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `refresh_tokens_users_user` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE NO ACTION);
-- create index "refreshtoken_token_hash" to table: "refresh_tokens"
CREATE UNIQUE INDEX `refreshtoken_token_hash` ON `refresh_tokens` (`token_hash`);
-- create index "refreshtoken_user_id" to table: "refresh_tokens"
CREATE INDEX `refreshtoken_user_id` ON `refresh_tokens` (`user_id`);
-- create index "refreshtoken_family_id" to table: "refresh_tokens"
CREATE INDEX `refreshtoken_family_id` ON `refresh_tokens` (`family_id`);
-- create "result_types" table
CREATE TABLE `result_types` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `code` text NOT NULL, `label` text NOT NULL, `requires_future_scheduled_at` bool NOT NULL DEFAULT (false), `sort_order` integer NOT NULL DEFAULT (0), PRIMARY KEY (`id`));
-- create index "resulttype_code" to table: "result_types"
CREATE UNIQUE INDEX `resulttype_code` ON `result_types` (`code`);
-- create "resurrection_configs" table
CREATE TABLE `resurrection_configs` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `archived_at` datetime NULL, `name` text NOT NULL, `description` text NULL, `source_table` text NOT NULL, `source_columns` json NULL, `date_column` text NOT NULL, `is_active` bool NOT NULL DEFAULT (true), `updated_by` uuid NULL, `activity_generation_config_id` uuid NOT NULL, `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `resurrection_configs_activity_g_71389e933daff4f82d633069877e2055` FOREIGN KEY (`activity_generation_config_id`) REFERENCES `activity_generation_configs` (`id`) ON DELETE CASCADE, CONSTRAINT `resurrection_configs_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `resurrection_configs_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION);
-- create index "resurrection_configs_activity_generation_config_id_key" to table: "resurrection_configs"
CREATE UNIQUE INDEX `resurrection_configs_activity_generation_config_id_key` ON `resurrection_configs` (`activity_generation_config_id`);
-- create index "resurrectionconfig_tenant_id" to table: "resurrection_configs"
CREATE INDEX `resurrectionconfig_tenant_id` ON `resurrection_configs` (`tenant_id`);
-- create index "resurrectionconfig_project_id" to table: "resurrection_configs"
CREATE INDEX `resurrectionconfig_project_id` ON `resurrection_configs` (`project_id`);
-- create "resurrection_thresholds" table
CREATE TABLE `resurrection_thresholds` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `status_code` text NOT NULL, `label` text NOT NULL, `threshold_days` integer NOT NULL, `sort_order` integer NOT NULL DEFAULT (0), `is_active` bool NOT NULL DEFAULT (true), `tenant_id` uuid NOT NULL, `project_id` uuid NOT NULL, `resurrection_config_id` uuid NOT NULL, `user_retention_status_config_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `resurrection_thresholds_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `resurrection_thresholds_projects_project` FOREIGN KEY (`project_id`) REFERENCES `projects` (`id`) ON DELETE NO ACTION, CONSTRAINT `resurrection_thresholds_resurrection_configs_resurrection_config` FOREIGN KEY (`resurrection_config_id`) REFERENCES `resurrection_configs` (`id`) ON DELETE CASCADE, CONSTRAINT `resurrection_thresholds_retenti_ccb2e9e822387294b396d49a2f1d2df0` FOREIGN KEY (`user_retention_status_config_id`) REFERENCES `retention_status_configs` (`id`) ON DELETE NO ACTION);
-- create index "resurrectionthreshold_tenant_id" to table: "resurrection_thresholds"
CREATE INDEX `resurrectionthreshold_tenant_id` ON `resurrection_thresholds` (`tenant_id`);
-- create index "resurrectionthreshold_project_id" to table: "resurrection_thresholds"
CREATE INDEX `resurrectionthreshold_project_id` ON `resurrection_thresholds` (`project_id`);
-- create index "resurrectionthreshold_resurrection_config_id_sort_order" to table: "resurrection_thresholds"
CREATE INDEX `resurrectionthreshold_resurrection_config_id_sort_order` ON `resurrection_thresholds` (`resurrection_config_id`, `sort_order`);
-- create index "resurrectionthreshold_user_retention_status_config_id" to table: "resurrection_thresholds"
CREATE INDEX `resurrectionthreshold_user_retention_status_config_id` ON `resurrection_thresholds` (`user_retention_status_config_id`);
-- create "retention_status_configs" table
CREATE TABLE `retention_status_configs` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `code` text NOT NULL, `label` text NOT NULL, `stage` text NOT NULL, `is_active` bool NOT NULL DEFAULT (true), `description` text NULL, `tenant_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `retention_status_configs_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION);
-- create index "retentionstatusconfig_tenant_id" to table: "retention_status_configs"
CREATE INDEX `retentionstatusconfig_tenant_id` ON `retention_status_configs` (`tenant_id`);
-- create index "retentionstatusconfig_tenant_id_code" to table: "retention_status_configs"
CREATE UNIQUE INDEX `retentionstatusconfig_tenant_id_code` ON `retention_status_configs` (`tenant_id`, `code`);
-- create "routes" table
CREATE TABLE `routes` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `archived_at` datetime NULL, `code` text NOT NULL, `name` text NOT NULL, `is_active` bool NOT NULL DEFAULT (true), `tenant_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `routes_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION);
-- create index "route_tenant_id" to table: "routes"
CREATE INDEX `route_tenant_id` ON `routes` (`tenant_id`);
-- create index "route_tenant_id_code" to table: "routes"
CREATE UNIQUE INDEX `route_tenant_id_code` ON `routes` (`tenant_id`, `code`) WHERE archived_at IS NULL;
-- create "route_operators" table
CREATE TABLE `route_operators` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `role` text NOT NULL DEFAULT ('MEMBER'), `is_active` bool NOT NULL DEFAULT (true), `tenant_id` uuid NOT NULL, `route_id` uuid NOT NULL, `operator_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `route_operators_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `route_operators_routes_route` FOREIGN KEY (`route_id`) REFERENCES `routes` (`id`) ON DELETE CASCADE, CONSTRAINT `route_operators_operators_operator` FOREIGN KEY (`operator_id`) REFERENCES `operators` (`id`) ON DELETE CASCADE);
-- create index "routeoperator_tenant_id" to table: "route_operators"
CREATE INDEX `routeoperator_tenant_id` ON `route_operators` (`tenant_id`);
-- create index "routeoperator_route_id_operator_id" to table: "route_operators"
CREATE UNIQUE INDEX `routeoperator_route_id_operator_id` ON `route_operators` (`route_id`, `operator_id`);
-- create index "routeoperator_operator_id" to table: "route_operators"
CREATE INDEX `routeoperator_operator_id` ON `route_operators` (`operator_id`);
-- create "supervisors" table
CREATE TABLE `supervisors` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `archived_at` datetime NULL, `name` text NOT NULL, `email` text NULL, `email_key` text NULL, `external_id` text NULL, `phone` text NULL, `is_active` bool NOT NULL DEFAULT (true), `metadata` json NULL, `tenant_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `supervisors_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION);
-- create index "supervisor_tenant_id" to table: "supervisors"
CREATE INDEX `supervisor_tenant_id` ON `supervisors` (`tenant_id`);
-- create index "supervisor_tenant_id_email_key" to table: "supervisors"
CREATE UNIQUE INDEX `supervisor_tenant_id_email_key` ON `supervisors` (`tenant_id`, `email_key`) WHERE archived_at IS NULL AND email_key IS NOT NULL;
-- create index "supervisor_tenant_id_external_id" to table: "supervisors"
CREATE UNIQUE INDEX `supervisor_tenant_id_external_id` ON `supervisors` (`tenant_id`, `external_id`) WHERE archived_at IS NULL AND external_id IS NOT NULL;
-- create "supervisor_assignments" table
CREATE TABLE `supervisor_assignments` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `tenant_id` uuid NOT NULL, `supervisor_id` uuid NOT NULL, `route_id` uuid NULL, `operator_id` uuid NULL, PRIMARY KEY (`id`), CONSTRAINT `supervisor_assignments_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION, CONSTRAINT `supervisor_assignments_supervisors_supervisor` FOREIGN KEY (`supervisor_id`) REFERENCES `supervisors` (`id`) ON DELETE CASCADE, CONSTRAINT `supervisor_assignments_routes_route` FOREIGN KEY (`route_id`) REFERENCES `routes` (`id`) ON DELETE CASCADE, CONSTRAINT `supervisor_assignments_operators_operator` FOREIGN KEY (`operator_id`) REFERENCES `operators` (`id`) ON DELETE CASCADE);
-- create index "supervisorassignment_tenant_id" to table: "supervisor_assignments"
CREATE INDEX `supervisorassignment_tenant_id` ON `supervisor_assignments` (`tenant_id`);
-- create index "supervisorassignment_supervisor_id_route_id_operator_id" to table: "supervisor_assignments"
CREATE UNIQUE INDEX `supervisorassignment_supervisor_id_route_id_operator_id` ON `supervisor_assignments` (`supervisor_id`, `route_id`, `operator_id`);
-- create index "supervisorassignment_supervisor_id_route_id" to table: "supervisor_assignments"
CREATE UNIQUE INDEX `supervisorassignment_supervisor_id_route_id` ON `supervisor_assignments` (`supervisor_id`, `route_id`) WHERE route_id IS NOT NULL AND operator_id IS NULL;
-- create index "supervisorassignment_supervisor_id_operator_id" to table: "supervisor_assignments"
CREATE UNIQUE INDEX `supervisorassignment_supervisor_id_operator_id` ON `supervisor_assignments` (`supervisor_id`, `operator_id`) WHERE operator_id IS NOT NULL AND route_id IS NULL;
-- create index "supervisorassignment_route_id" to table: "supervisor_assignments"
CREATE INDEX `supervisorassignment_route_id` ON `supervisor_assignments` (`route_id`);
-- create index "supervisorassignment_operator_id" to table: "supervisor_assignments"
CREATE INDEX `supervisorassignment_operator_id` ON `supervisor_assignments` (`operator_id`);
-- create "tenants" table
CREATE TABLE `tenants` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `name_key` text NOT NULL, `time_zone` text NOT NULL DEFAULT ('UTC'), `day_cutoff` text NOT NULL DEFAULT ('23:59'), `is_active` bool NOT NULL DEFAULT (true), PRIMARY KEY (`id`));
-- create index "tenant_name_key" to table: "tenants"
CREATE UNIQUE INDEX `tenant_name_key` ON `tenants` (`name_key`);
-- create "tenant_datasets" table
CREATE TABLE `tenant_datasets` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `engine` text NOT NULL, `connection` blob NULL, `schema_name` text NULL, `bigquery_project` text NULL, `bigquery_dataset` text NULL, `tenant_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `tenant_datasets_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION);
-- create index "tenantdataset_tenant_id" to table: "tenant_datasets"
CREATE INDEX `tenantdataset_tenant_id` ON `tenant_datasets` (`tenant_id`);
-- create index "tenantdataset_tenant_id_unique" to table: "tenant_datasets"
CREATE UNIQUE INDEX `tenantdataset_tenant_id_unique` ON `tenant_datasets` (`tenant_id`);
-- create "tenant_result_type_configs" table
CREATE TABLE `tenant_result_type_configs` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `result_type_code` text NOT NULL, `is_active` bool NOT NULL DEFAULT (true), `polarity` text NOT NULL, `requires_future_scheduled_at` bool NOT NULL DEFAULT (false), `tenant_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `tenant_result_type_configs_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION);
-- create index "tenantresulttypeconfig_tenant_id" to table: "tenant_result_type_configs"
CREATE INDEX `tenantresulttypeconfig_tenant_id` ON `tenant_result_type_configs` (`tenant_id`);
-- create index "tenantresulttypeconfig_tenant_id_result_type_code" to table: "tenant_result_type_configs"
CREATE UNIQUE INDEX `tenantresulttypeconfig_tenant_id_result_type_code` ON `tenant_result_type_configs` (`tenant_id`, `result_type_code`);
-- create "trash_records" table
CREATE TABLE `trash_records` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `kind` text NOT NULL, `record_id` uuid NOT NULL, `project_id` uuid NULL, `label` text NOT NULL, `snapshot` json NULL, `deleted_by` uuid NULL, `deleted_at` datetime NOT NULL, `purge_after` datetime NOT NULL, `tenant_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `trash_records_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION);
-- create index "trashrecord_tenant_id" to table: "trash_records"
CREATE INDEX `trashrecord_tenant_id` ON `trash_records` (`tenant_id`);
-- create index "trashrecord_kind_record_id" to table: "trash_records"
CREATE UNIQUE INDEX `trashrecord_kind_record_id` ON `trash_records` (`kind`, `record_id`);
-- create index "trashrecord_tenant_id_deleted_at" to table: "trash_records"
CREATE INDEX `trashrecord_tenant_id_deleted_at` ON `trash_records` (`tenant_id`, `deleted_at`);
-- create index "trashrecord_purge_after" to table: "trash_records"
CREATE INDEX `trashrecord_purge_after` ON `trash_records` (`purge_after`);
-- create "trash_settings" table
CREATE TABLE `trash_settings` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `retention_days` integer NOT NULL DEFAULT (30), `tenant_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `trash_settings_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION);
-- create index "trashsetting_tenant_id" to table: "trash_settings"
CREATE INDEX `trashsetting_tenant_id` ON `trash_settings` (`tenant_id`);
-- create index "trashsetting_tenant_id_unique" to table: "trash_settings"
CREATE UNIQUE INDEX `trashsetting_tenant_id_unique` ON `trash_settings` (`tenant_id`);
-- create "users" table
CREATE TABLE `users` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `email` text NOT NULL, `email_key` text NOT NULL, `username` text NOT NULL, `username_key` text NOT NULL, `password_hash` text NOT NULL, `first_name` text NOT NULL DEFAULT (''), `last_name` text NOT NULL DEFAULT (''), `is_active` bool NOT NULL DEFAULT (true), `last_login_at` datetime NULL, PRIMARY KEY (`id`));
-- create index "user_email_key" to table: "users"
CREATE UNIQUE INDEX `user_email_key` ON `users` (`email_key`);
-- create index "user_username_key" to table: "users"
CREATE UNIQUE INDEX `user_username_key` ON `users` (`username_key`);

-- +goose Down
-- reverse: create index "user_username_key" to table: "users"
DROP INDEX `user_username_key`;
-- reverse: create index "user_email_key" to table: "users"
DROP INDEX `user_email_key`;
-- reverse: create "users" table
DROP TABLE `users`;
-- reverse: create index "trashsetting_tenant_id_unique" to table: "trash_settings"
DROP INDEX `trashsetting_tenant_id_unique`;
-- reverse: create index "trashsetting_tenant_id" to table: "trash_settings"
DROP INDEX `trashsetting_tenant_id`;
-- reverse: create "trash_settings" table
DROP TABLE `trash_settings`;
-- reverse: create index "trashrecord_purge_after" to table: "trash_records"
DROP INDEX `trashrecord_purge_after`;
-- reverse: create index "trashrecord_tenant_id_deleted_at" to table: "trash_records"
DROP INDEX `trashrecord_tenant_id_deleted_at`;
-- reverse: create index "trashrecord_kind_record_id" to table: "trash_records"
DROP INDEX `trashrecord_kind_record_id`;
-- reverse: create index "trashrecord_tenant_id" to table: "trash_records"
DROP INDEX `trashrecord_tenant_id`;
-- reverse: create "trash_records" table
DROP TABLE `trash_records`;
-- reverse: create index "tenantresulttypeconfig_tenant_id_result_type_code" to table: "tenant_result_type_configs"
DROP INDEX `tenantresulttypeconfig_tenant_id_result_type_code`;
-- reverse: create index "tenantresulttypeconfig_tenant_id" to table: "tenant_result_type_configs"
DROP INDEX `tenantresulttypeconfig_tenant_id`;
-- reverse: create "tenant_result_type_configs" table
DROP TABLE `tenant_result_type_configs`;
-- reverse: create index "tenantdataset_tenant_id_unique" to table: "tenant_datasets"
DROP INDEX `tenantdataset_tenant_id_unique`;
-- reverse: create index "tenantdataset_tenant_id" to table: "tenant_datasets"
DROP INDEX `tenantdataset_tenant_id`;
-- reverse: create "tenant_datasets" table
DROP TABLE `tenant_datasets`;
-- reverse: create index "tenant_name_key" to table: "tenants"
DROP INDEX `tenant_name_key`;
-- reverse: create "tenants" table
DROP TABLE `tenants`;
-- reverse: create index "supervisorassignment_operator_id" to table: "supervisor_assignments"
DROP INDEX `supervisorassignment_operator_id`;
-- reverse: create index "supervisorassignment_route_id" to table: "supervisor_assignments"
DROP INDEX `supervisorassignment_route_id`;
-- reverse: create index "supervisorassignment_supervisor_id_operator_id" to table: "supervisor_assignments"
DROP INDEX `supervisorassignment_supervisor_id_operator_id`;
-- reverse: create index "supervisorassignment_supervisor_id_route_id" to table: "supervisor_assignments"
DROP INDEX `supervisorassignment_supervisor_id_route_id`;
-- reverse: create index "supervisorassignment_supervisor_id_route_id_operator_id" to table: "supervisor_assignments"
DROP INDEX `supervisorassignment_supervisor_id_route_id_operator_id`;
-- reverse: create index "supervisorassignment_tenant_id" to table: "supervisor_assignments"
DROP INDEX `supervisorassignment_tenant_id`;
-- reverse: create "supervisor_assignments" table
DROP TABLE `supervisor_assignments`;
-- reverse: create index "supervisor_tenant_id_external_id" to table: "supervisors"
DROP INDEX `supervisor_tenant_id_external_id`;
-- reverse: create index "supervisor_tenant_id_email_key" to table: "supervisors"
DROP INDEX `supervisor_tenant_id_email_key`;
-- reverse: create index "supervisor_tenant_id" to table: "supervisors"
DROP INDEX `supervisor_tenant_id`;
-- reverse: create "supervisors" table
DROP TABLE `supervisors`;
-- reverse: create index "routeoperator_operator_id" to table: "route_operators"
DROP INDEX `routeoperator_operator_id`;
-- reverse: create index "routeoperator_route_id_operator_id" to table: "route_operators"
DROP INDEX `routeoperator_route_id_operator_id`;
-- reverse: create index "routeoperator_tenant_id" to table: "route_operators"
DROP INDEX `routeoperator_tenant_id`;
-- reverse: create "route_operators" table
DROP TABLE `route_operators`;
-- reverse: create index "route_tenant_id_code" to table: "routes"
DROP INDEX `route_tenant_id_code`;
-- reverse: create index "route_tenant_id" to table: "routes"
DROP INDEX `route_tenant_id`;
-- reverse: create "routes" table
DROP TABLE `routes`;
-- reverse: create index "retentionstatusconfig_tenant_id_code" to table: "retention_status_configs"
DROP INDEX `retentionstatusconfig_tenant_id_code`;
-- reverse: create index "retentionstatusconfig_tenant_id" to table: "retention_status_configs"
DROP INDEX `retentionstatusconfig_tenant_id`;
-- reverse: create "retention_status_configs" table
DROP TABLE `retention_status_configs`;
-- reverse: create index "resurrectionthreshold_user_retention_status_config_id" to table: "resurrection_thresholds"
DROP INDEX `resurrectionthreshold_user_retention_status_config_id`;
-- reverse: create index "resurrectionthreshold_resurrection_config_id_sort_order" to table: "resurrection_thresholds"
DROP INDEX `resurrectionthreshold_resurrection_config_id_sort_order`;
-- reverse: create index "resurrectionthreshold_project_id" to table: "resurrection_thresholds"
DROP INDEX `resurrectionthreshold_project_id`;
-- reverse: create index "resurrectionthreshold_tenant_id" to table: "resurrection_thresholds"
DROP INDEX `resurrectionthreshold_tenant_id`;
-- reverse: create "resurrection_thresholds" table
DROP TABLE `resurrection_thresholds`;
-- reverse: create index "resurrectionconfig_project_id" to table: "resurrection_configs"
DROP INDEX `resurrectionconfig_project_id`;
-- reverse: create index "resurrectionconfig_tenant_id" to table: "resurrection_configs"
DROP INDEX `resurrectionconfig_tenant_id`;
-- reverse: create index "resurrection_configs_activity_generation_config_id_key" to table: "resurrection_configs"
DROP INDEX `resurrection_configs_activity_generation_config_id_key`;
-- reverse: create "resurrection_configs" table
DROP TABLE `resurrection_configs`;
-- reverse: create index "resulttype_code" to table: "result_types"
DROP INDEX `resulttype_code`;
-- reverse: create "result_types" table
DROP TABLE `result_types`;
-- reverse: create index "refreshtoken_family_id" to table: "refresh_tokens"
DROP INDEX `refreshtoken_family_id`;
-- reverse: create index "refreshtoken_user_id" to table: "refresh_tokens"
DROP INDEX `refreshtoken_user_id`;
-- reverse: create index "refreshtoken_token_hash" to table: "refresh_tokens"
DROP INDEX `refreshtoken_token_hash`;
-- reverse: create "refresh_tokens" table
DROP TABLE `refresh_tokens`;
-- reverse: create index "queryblock_event_filter_id_sort_order" to table: "query_blocks"
DROP INDEX `queryblock_event_filter_id_sort_order`;
-- reverse: create index "queryblock_audience_id_sort_order" to table: "query_blocks"
DROP INDEX `queryblock_audience_id_sort_order`;
-- reverse: create index "queryblock_project_id" to table: "query_blocks"
DROP INDEX `queryblock_project_id`;
-- reverse: create index "queryblock_tenant_id" to table: "query_blocks"
DROP INDEX `queryblock_tenant_id`;
-- reverse: create "query_blocks" table
DROP TABLE `query_blocks`;
-- reverse: create index "project_one_main_per_tenant" to table: "projects"
DROP INDEX `project_one_main_per_tenant`;
-- reverse: create index "project_tenant_id_name_key" to table: "projects"
DROP INDEX `project_tenant_id_name_key`;
-- reverse: create index "project_tenant_id" to table: "projects"
DROP INDEX `project_tenant_id`;
-- reverse: create "projects" table
DROP TABLE `projects`;
-- reverse: create index "operator_tenant_id_type_external_id" to table: "operators"
DROP INDEX `operator_tenant_id_type_external_id`;
-- reverse: create index "operator_tenant_id_email_key" to table: "operators"
DROP INDEX `operator_tenant_id_email_key`;
-- reverse: create index "operator_tenant_id" to table: "operators"
DROP INDEX `operator_tenant_id`;
-- reverse: create "operators" table
DROP TABLE `operators`;
-- reverse: create index "membership_user_id" to table: "memberships"
DROP INDEX `membership_user_id`;
-- reverse: create index "membership_tenant_id_user_id" to table: "memberships"
DROP INDEX `membership_tenant_id_user_id`;
-- reverse: create index "membership_tenant_id" to table: "memberships"
DROP INDEX `membership_tenant_id`;
-- reverse: create "memberships" table
DROP TABLE `memberships`;
-- reverse: create index "idempotencyrecord_expires_at" to table: "idempotency_records"
DROP INDEX `idempotencyrecord_expires_at`;
-- reverse: create index "idempotencyrecord_tenant_id_key_method_path" to table: "idempotency_records"
DROP INDEX `idempotencyrecord_tenant_id_key_method_path`;
-- reverse: create index "idempotencyrecord_tenant_id" to table: "idempotency_records"
DROP INDEX `idempotencyrecord_tenant_id`;
-- reverse: create "idempotency_records" table
DROP TABLE `idempotency_records`;
-- reverse: create index "eventfilter_project_id" to table: "event_filters"
DROP INDEX `eventfilter_project_id`;
-- reverse: create index "eventfilter_tenant_id" to table: "event_filters"
DROP INDEX `eventfilter_tenant_id`;
-- reverse: create "event_filters" table
DROP TABLE `event_filters`;
-- reverse: create index "engagementlevel_user_retention_status_config_id" to table: "engagement_levels"
DROP INDEX `engagementlevel_user_retention_status_config_id`;
-- reverse: create index "engagementlevel_engagement_config_id_sort_order" to table: "engagement_levels"
DROP INDEX `engagementlevel_engagement_config_id_sort_order`;
-- reverse: create index "engagementlevel_project_id" to table: "engagement_levels"
DROP INDEX `engagementlevel_project_id`;
-- reverse: create index "engagementlevel_tenant_id" to table: "engagement_levels"
DROP INDEX `engagementlevel_tenant_id`;
-- reverse: create "engagement_levels" table
DROP TABLE `engagement_levels`;
-- reverse: create index "engagementconfig_project_id" to table: "engagement_configs"
DROP INDEX `engagementconfig_project_id`;
-- reverse: create index "engagementconfig_tenant_id" to table: "engagement_configs"
DROP INDEX `engagementconfig_tenant_id`;
-- reverse: create index "engagement_configs_activity_generation_config_id_key" to table: "engagement_configs"
DROP INDEX `engagement_configs_activity_generation_config_id_key`;
-- reverse: create "engagement_configs" table
DROP TABLE `engagement_configs`;
-- reverse: create index "dispatchprovider_tenant_id_name" to table: "dispatch_providers"
DROP INDEX `dispatchprovider_tenant_id_name`;
-- reverse: create index "dispatchprovider_tenant_id" to table: "dispatch_providers"
DROP INDEX `dispatchprovider_tenant_id`;
-- reverse: create "dispatch_providers" table
DROP TABLE `dispatch_providers`;
-- reverse: create index "dispatchconfig_channel_definition_id" to table: "dispatch_configs"
DROP INDEX `dispatchconfig_channel_definition_id`;
-- reverse: create index "dispatchconfig_provider_id" to table: "dispatch_configs"
DROP INDEX `dispatchconfig_provider_id`;
-- reverse: create index "dispatchconfig_project_id_channel" to table: "dispatch_configs"
DROP INDEX `dispatchconfig_project_id_channel`;
-- reverse: create index "dispatchconfig_project_id" to table: "dispatch_configs"
DROP INDEX `dispatchconfig_project_id`;
-- reverse: create index "dispatchconfig_tenant_id" to table: "dispatch_configs"
DROP INDEX `dispatchconfig_tenant_id`;
-- reverse: create "dispatch_configs" table
DROP TABLE `dispatch_configs`;
-- reverse: create index "commerceuserrole_commerce_user_id_role" to table: "commerce_user_roles"
DROP INDEX `commerceuserrole_commerce_user_id_role`;
-- reverse: create index "commerceuserrole_tenant_id" to table: "commerce_user_roles"
DROP INDEX `commerceuserrole_tenant_id`;
-- reverse: create "commerce_user_roles" table
DROP TABLE `commerce_user_roles`;
-- reverse: create index "commerceuser_commerce_id_external_id" to table: "commerce_users"
DROP INDEX `commerceuser_commerce_id_external_id`;
-- reverse: create index "commerceuser_tenant_id" to table: "commerce_users"
DROP INDEX `commerceuser_tenant_id`;
-- reverse: create "commerce_users" table
DROP TABLE `commerce_users`;
-- reverse: create index "commercelifecyclesnapshot_tenant_id_external_id" to table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_tenant_id_external_id`;
-- reverse: create index "commercelifecyclesnapshot_tenan_38506f300c87d44862236faf271145bd" to table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_tenan_38506f300c87d44862236faf271145bd`;
-- reverse: create index "commercelifecyclesnapshot_tenant_id_stage_state_changed_at" to table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_tenant_id_stage_state_changed_at`;
-- reverse: create index "commercelifecyclesnapshot_tenant_id_code_state_changed_at" to table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_tenant_id_code_state_changed_at`;
-- reverse: create index "commercelifecyclesnapshot_tenant_id_state_changed_at" to table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_tenant_id_state_changed_at`;
-- reverse: create index "commercelifecyclesnapshot_comme_a7e477696b0597cb09e6460b1ad54105" to table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_comme_a7e477696b0597cb09e6460b1ad54105`;
-- reverse: create index "commercelifecyclesnapshot_tenant_id" to table: "commerce_lifecycle_snapshots"
DROP INDEX `commercelifecyclesnapshot_tenant_id`;
-- reverse: create "commerce_lifecycle_snapshots" table
DROP TABLE `commerce_lifecycle_snapshots`;
-- reverse: create index "commercecontact_commerce_user_id_contact_type_primary" to table: "commerce_contacts"
DROP INDEX `commercecontact_commerce_user_id_contact_type_primary`;
-- reverse: create index "commercecontact_commerce_user_id" to table: "commerce_contacts"
DROP INDEX `commercecontact_commerce_user_id`;
-- reverse: create index "commercecontact_tenant_id" to table: "commerce_contacts"
DROP INDEX `commercecontact_tenant_id`;
-- reverse: create "commerce_contacts" table
DROP TABLE `commerce_contacts`;
-- reverse: create index "commerceaddress_commerce_id_primary" to table: "commerce_addresses"
DROP INDEX `commerceaddress_commerce_id_primary`;
-- reverse: create index "commerceaddress_commerce_id" to table: "commerce_addresses"
DROP INDEX `commerceaddress_commerce_id`;
-- reverse: create index "commerceaddress_tenant_id" to table: "commerce_addresses"
DROP INDEX `commerceaddress_tenant_id`;
-- reverse: create "commerce_addresses" table
DROP TABLE `commerce_addresses`;
-- reverse: create index "commerce_tenant_id_name" to table: "commerces"
DROP INDEX `commerce_tenant_id_name`;
-- reverse: create index "commerce_tenant_id_external_id" to table: "commerces"
DROP INDEX `commerce_tenant_id_external_id`;
-- reverse: create index "commerce_tenant_id" to table: "commerces"
DROP INDEX `commerce_tenant_id`;
-- reverse: create "commerces" table
DROP TABLE `commerces`;
-- reverse: create index "channeldefinition_provider_id_name" to table: "channel_definitions"
DROP INDEX `channeldefinition_provider_id_name`;
-- reverse: create index "channeldefinition_tenant_id" to table: "channel_definitions"
DROP INDEX `channeldefinition_tenant_id`;
-- reverse: create "channel_definitions" table
DROP TABLE `channel_definitions`;
-- reverse: create index "catalogtable_dataset_id_name" to table: "catalog_tables"
DROP INDEX `catalogtable_dataset_id_name`;
-- reverse: create index "catalogtable_tenant_id" to table: "catalog_tables"
DROP INDEX `catalogtable_tenant_id`;
-- reverse: create "catalog_tables" table
DROP TABLE `catalog_tables`;
-- reverse: create index "catalogsemijoin_to_table_id" to table: "catalog_semi_joins"
DROP INDEX `catalogsemijoin_to_table_id`;
-- reverse: create index "catalogsemijoin_from_table_id_name" to table: "catalog_semi_joins"
DROP INDEX `catalogsemijoin_from_table_id_name`;
-- reverse: create index "catalogsemijoin_tenant_id" to table: "catalog_semi_joins"
DROP INDEX `catalogsemijoin_tenant_id`;
-- reverse: create "catalog_semi_joins" table
DROP TABLE `catalog_semi_joins`;
-- reverse: create index "catalogcolumn_parent_id" to table: "catalog_columns"
DROP INDEX `catalogcolumn_parent_id`;
-- reverse: create index "catalogcolumn_table_id_name" to table: "catalog_columns"
DROP INDEX `catalogcolumn_table_id_name`;
-- reverse: create index "catalogcolumn_table_id_parent_id_name" to table: "catalog_columns"
DROP INDEX `catalogcolumn_table_id_parent_id_name`;
-- reverse: create index "catalogcolumn_tenant_id" to table: "catalog_columns"
DROP INDEX `catalogcolumn_tenant_id`;
-- reverse: create "catalog_columns" table
DROP TABLE `catalog_columns`;
-- reverse: create index "audiencecomposition_operand_audience_id" to table: "audience_compositions"
DROP INDEX `audiencecomposition_operand_audience_id`;
-- reverse: create index "audiencecomposition_audience_id_operand_audience_id" to table: "audience_compositions"
DROP INDEX `audiencecomposition_audience_id_operand_audience_id`;
-- reverse: create index "audiencecomposition_project_id" to table: "audience_compositions"
DROP INDEX `audiencecomposition_project_id`;
-- reverse: create index "audiencecomposition_tenant_id" to table: "audience_compositions"
DROP INDEX `audiencecomposition_tenant_id`;
-- reverse: create "audience_compositions" table
DROP TABLE `audience_compositions`;
-- reverse: create index "audience_one_root_per_project" to table: "audiences"
DROP INDEX `audience_one_root_per_project`;
-- reverse: create index "audience_project_id" to table: "audiences"
DROP INDEX `audience_project_id`;
-- reverse: create index "audience_tenant_id" to table: "audiences"
DROP INDEX `audience_tenant_id`;
-- reverse: create "audiences" table
DROP TABLE `audiences`;
-- reverse: create index "activitystatusevent_activity_id_occurred_at" to table: "activity_status_events"
DROP INDEX `activitystatusevent_activity_id_occurred_at`;
-- reverse: create index "activitystatusevent_project_id" to table: "activity_status_events"
DROP INDEX `activitystatusevent_project_id`;
-- reverse: create index "activitystatusevent_tenant_id" to table: "activity_status_events"
DROP INDEX `activitystatusevent_tenant_id`;
-- reverse: create "activity_status_events" table
DROP TABLE `activity_status_events`;
-- reverse: create index "activityresult_commerce_id" to table: "activity_results"
DROP INDEX `activityresult_commerce_id`;
-- reverse: create index "activityresult_project_id" to table: "activity_results"
DROP INDEX `activityresult_project_id`;
-- reverse: create index "activityresult_tenant_id_updated_at_id" to table: "activity_results"
DROP INDEX `activityresult_tenant_id_updated_at_id`;
-- reverse: create index "activityresult_tenant_id" to table: "activity_results"
DROP INDEX `activityresult_tenant_id`;
-- reverse: create index "activity_results_activity_id_key" to table: "activity_results"
DROP INDEX `activity_results_activity_id_key`;
-- reverse: create "activity_results" table
DROP TABLE `activity_results`;
-- reverse: create index "activityreasonconfig_tenant_id_code" to table: "activity_reason_configs"
DROP INDEX `activityreasonconfig_tenant_id_code`;
-- reverse: create index "activityreasonconfig_tenant_id" to table: "activity_reason_configs"
DROP INDEX `activityreasonconfig_tenant_id`;
-- reverse: create "activity_reason_configs" table
DROP TABLE `activity_reason_configs`;
-- reverse: create index "activitygenerationconfig_audience_id" to table: "activity_generation_configs"
DROP INDEX `activitygenerationconfig_audience_id`;
-- reverse: create index "activitygenerationconfig_project_id_name" to table: "activity_generation_configs"
DROP INDEX `activitygenerationconfig_project_id_name`;
-- reverse: create index "activitygenerationconfig_project_id" to table: "activity_generation_configs"
DROP INDEX `activitygenerationconfig_project_id`;
-- reverse: create index "activitygenerationconfig_tenant_id" to table: "activity_generation_configs"
DROP INDEX `activitygenerationconfig_tenant_id`;
-- reverse: create "activity_generation_configs" table
DROP TABLE `activity_generation_configs`;
-- reverse: create index "activityattribute_activity_id_key" to table: "activity_attributes"
DROP INDEX `activityattribute_activity_id_key`;
-- reverse: create index "activityattribute_project_id" to table: "activity_attributes"
DROP INDEX `activityattribute_project_id`;
-- reverse: create index "activityattribute_tenant_id" to table: "activity_attributes"
DROP INDEX `activityattribute_tenant_id`;
-- reverse: create "activity_attributes" table
DROP TABLE `activity_attributes`;
-- reverse: create index "activity_route_id" to table: "activities"
DROP INDEX `activity_route_id`;
-- reverse: create index "activity_operator_id" to table: "activities"
DROP INDEX `activity_operator_id`;
-- reverse: create index "activity_commerce_id" to table: "activities"
DROP INDEX `activity_commerce_id`;
-- reverse: create index "activity_status_scheduled_at" to table: "activities"
DROP INDEX `activity_status_scheduled_at`;
-- reverse: create index "activity_status_next_dispatch_at" to table: "activities"
DROP INDEX `activity_status_next_dispatch_at`;
-- reverse: create index "activity_tenant_id_provider_activity_id" to table: "activities"
DROP INDEX `activity_tenant_id_provider_activity_id`;
-- reverse: create index "activity_project_id_scheduled_at" to table: "activities"
DROP INDEX `activity_project_id_scheduled_at`;
-- reverse: create index "activity_project_id_commerce_id" to table: "activities"
DROP INDEX `activity_project_id_commerce_id`;
-- reverse: create index "activity_project_id_status_scheduled_at" to table: "activities"
DROP INDEX `activity_project_id_status_scheduled_at`;
-- reverse: create index "activity_project_id" to table: "activities"
DROP INDEX `activity_project_id`;
-- reverse: create index "activity_tenant_id" to table: "activities"
DROP INDEX `activity_tenant_id`;
-- reverse: create "activities" table
DROP TABLE `activities`;
-- reverse: create index "activationmoment_user_retention_status_config_id" to table: "activation_moments"
DROP INDEX `activationmoment_user_retention_status_config_id`;
-- reverse: create index "activationmoment_activation_config_id_priority" to table: "activation_moments"
DROP INDEX `activationmoment_activation_config_id_priority`;
-- reverse: create index "activationmoment_project_id" to table: "activation_moments"
DROP INDEX `activationmoment_project_id`;
-- reverse: create index "activationmoment_tenant_id" to table: "activation_moments"
DROP INDEX `activationmoment_tenant_id`;
-- reverse: create "activation_moments" table
DROP TABLE `activation_moments`;
-- reverse: create index "activationconfig_project_id" to table: "activation_configs"
DROP INDEX `activationconfig_project_id`;
-- reverse: create index "activationconfig_tenant_id" to table: "activation_configs"
DROP INDEX `activationconfig_tenant_id`;
-- reverse: create index "activation_configs_activity_generation_config_id_key" to table: "activation_configs"
DROP INDEX `activation_configs_activity_generation_config_id_key`;
-- reverse: create "activation_configs" table
DROP TABLE `activation_configs`;
-- reverse: create index "apikey_tenant_id_user_id" to table: "api_keys"
DROP INDEX `apikey_tenant_id_user_id`;
-- reverse: create index "apikey_key_hash" to table: "api_keys"
DROP INDEX `apikey_key_hash`;
-- reverse: create index "apikey_tenant_id" to table: "api_keys"
DROP INDEX `apikey_tenant_id`;
-- reverse: create "api_keys" table
DROP TABLE `api_keys`;
