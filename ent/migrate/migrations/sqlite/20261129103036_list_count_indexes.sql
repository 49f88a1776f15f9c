-- +goose Up
-- drop index "audience_tenant_id_project_id_is_root_created_at_id" from table: "audiences"
DROP INDEX `audience_tenant_id_project_id_is_root_created_at_id`;
-- create index "audience_tenant_id_project_id_is_root_created_at_id_name" to table: "audiences"
CREATE INDEX `audience_tenant_id_project_id_is_root_created_at_id_name` ON `audiences` (`tenant_id`, `project_id`, `is_root`, `created_at`, `id`, `name`) WHERE archived_at IS NULL;
-- create index "commerce_tenant_id_name_id" to table: "commerces"
CREATE INDEX `commerce_tenant_id_name_id` ON `commerces` (`tenant_id`, `name`, `id`);
-- drop index "eventfilter_tenant_id_project_id_created_at_id" from table: "event_filters"
DROP INDEX `eventfilter_tenant_id_project_id_created_at_id`;
-- create index "eventfilter_tenant_id_project_id_created_at_id_name" to table: "event_filters"
CREATE INDEX `eventfilter_tenant_id_project_id_created_at_id_name` ON `event_filters` (`tenant_id`, `project_id`, `created_at`, `id`, `name`) WHERE archived_at IS NULL;
-- drop index "operator_tenant_id_name_id" from table: "operators"
DROP INDEX `operator_tenant_id_name_id`;
-- create index "operator_tenant_id_name_id_email_external_id_type_is_active" to table: "operators"
CREATE INDEX `operator_tenant_id_name_id_email_external_id_type_is_active` ON `operators` (`tenant_id`, `name`, `id`, `email`, `external_id`, `type`, `is_active`) WHERE archived_at IS NULL;
-- drop index "route_tenant_id_code_id" from table: "routes"
DROP INDEX `route_tenant_id_code_id`;
-- create index "route_tenant_id_code_id_name_is_active" to table: "routes"
CREATE INDEX `route_tenant_id_code_id_name_is_active` ON `routes` (`tenant_id`, `code`, `id`, `name`, `is_active`) WHERE archived_at IS NULL;
-- drop index "supervisor_tenant_id_name_id" from table: "supervisors"
DROP INDEX `supervisor_tenant_id_name_id`;
-- create index "supervisor_tenant_id_name_id_email_external_id_is_active" to table: "supervisors"
CREATE INDEX `supervisor_tenant_id_name_id_email_external_id_is_active` ON `supervisors` (`tenant_id`, `name`, `id`, `email`, `external_id`, `is_active`) WHERE archived_at IS NULL;
-- drop index "lifecyclerun_activity_generation_config_id_created_at_id" from table: "lifecycle_runs"
DROP INDEX `lifecyclerun_activity_generation_config_id_created_at_id`;
-- create index "lifecyclerun_activity_generatio_952d1e75f33508622862dcc066eaeccc" to table: "lifecycle_runs"
CREATE INDEX `lifecyclerun_activity_generatio_952d1e75f33508622862dcc066eaeccc` ON `lifecycle_runs` (`activity_generation_config_id`, `created_at`, `id`, `tenant_id`, `project_id`);
-- drop index "generationrule_tenant_id_activi_d6a5163abbd67b748017d1af461260d3" from table: "generation_rules"
DROP INDEX `generationrule_tenant_id_activi_d6a5163abbd67b748017d1af461260d3`;
-- create index "generationrule_tenant_id_activi_e7a088cef1d3bc8b31e1cf1acce98f29" to table: "generation_rules"
CREATE INDEX `generationrule_tenant_id_activi_e7a088cef1d3bc8b31e1cf1acce98f29` ON `generation_rules` (`tenant_id`, `activity_generation_config_id`, `priority`, `id`, `project_id`) WHERE archived_at IS NULL;
-- drop index "activity_tenant_id_project_id_type_scheduled_at_id" from table: "activities"
DROP INDEX `activity_tenant_id_project_id_type_scheduled_at_id`;
-- drop index "activity_tenant_id_type_scheduled_at_id" from table: "activities"
DROP INDEX `activity_tenant_id_type_scheduled_at_id`;
-- create index "activity_tenant_id_project_id_t_900b230ed725b75d0b784255b0bea3fa" to table: "activities"
CREATE INDEX `activity_tenant_id_project_id_t_900b230ed725b75d0b784255b0bea3fa` ON `activities` (`tenant_id`, `project_id`, `type`, `scheduled_at`, `id`, `status`, `channel`, `commerce_id`, `title`);
-- create index "activity_tenant_id_type_schedul_26cfbb26c94014b7e2b089931c791cb5" to table: "activities"
CREATE INDEX `activity_tenant_id_type_schedul_26cfbb26c94014b7e2b089931c791cb5` ON `activities` (`tenant_id`, `type`, `scheduled_at`, `id`, `status`, `channel`, `commerce_id`, `title`);
-- drop index "generationdecision_tenant_id_ac_dab5dc564ba2dd39b8c514281d0ac53c" from table: "generation_decisions"
DROP INDEX `generationdecision_tenant_id_ac_dab5dc564ba2dd39b8c514281d0ac53c`;
-- drop index "generationdecision_tenant_id_commerce_id_decided_at_id" from table: "generation_decisions"
DROP INDEX `generationdecision_tenant_id_commerce_id_decided_at_id`;
-- create index "generationdecision_tenant_id_ac_0f58cd1f7927064e2a1de3d49d672840" to table: "generation_decisions"
CREATE INDEX `generationdecision_tenant_id_ac_0f58cd1f7927064e2a1de3d49d672840` ON `generation_decisions` (`tenant_id`, `activity_generation_config_id`, `decided_at`, `id`, `project_id`, `rule_id`, `kind`);
-- create index "generationdecision_tenant_id_co_840758ec898e8646c3298329f68ec288" to table: "generation_decisions"
CREATE INDEX `generationdecision_tenant_id_co_840758ec898e8646c3298329f68ec288` ON `generation_decisions` (`tenant_id`, `commerce_id`, `decided_at`, `id`, `project_id`, `activity_generation_config_id`, `rule_id`, `kind`);
-- drop index "webhookdelivery_tenant_id_endpoint_id_created_at_id" from table: "webhook_deliveries"
DROP INDEX `webhookdelivery_tenant_id_endpoint_id_created_at_id`;
-- create index "webhookdelivery_tenant_id_endpo_4946bd3f0ba1c0f2e3460e20ac5a7042" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_tenant_id_endpo_4946bd3f0ba1c0f2e3460e20ac5a7042` ON `webhook_deliveries` (`tenant_id`, `endpoint_id`, `created_at`, `id`, `status`, `event_type`);

-- +goose Down
-- reverse: create index "webhookdelivery_tenant_id_endpo_4946bd3f0ba1c0f2e3460e20ac5a7042" to table: "webhook_deliveries"
DROP INDEX `webhookdelivery_tenant_id_endpo_4946bd3f0ba1c0f2e3460e20ac5a7042`;
-- reverse: drop index "webhookdelivery_tenant_id_endpoint_id_created_at_id" from table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_tenant_id_endpoint_id_created_at_id` ON `webhook_deliveries` (`tenant_id`, `endpoint_id`, `created_at`, `id`);
-- reverse: create index "generationdecision_tenant_id_co_840758ec898e8646c3298329f68ec288" to table: "generation_decisions"
DROP INDEX `generationdecision_tenant_id_co_840758ec898e8646c3298329f68ec288`;
-- reverse: create index "generationdecision_tenant_id_ac_0f58cd1f7927064e2a1de3d49d672840" to table: "generation_decisions"
DROP INDEX `generationdecision_tenant_id_ac_0f58cd1f7927064e2a1de3d49d672840`;
-- reverse: drop index "generationdecision_tenant_id_commerce_id_decided_at_id" from table: "generation_decisions"
CREATE INDEX `generationdecision_tenant_id_commerce_id_decided_at_id` ON `generation_decisions` (`tenant_id`, `commerce_id`, `decided_at`, `id`);
-- reverse: drop index "generationdecision_tenant_id_ac_dab5dc564ba2dd39b8c514281d0ac53c" from table: "generation_decisions"
CREATE INDEX `generationdecision_tenant_id_ac_dab5dc564ba2dd39b8c514281d0ac53c` ON `generation_decisions` (`tenant_id`, `activity_generation_config_id`, `decided_at`, `id`);
-- reverse: create index "activity_tenant_id_type_schedul_26cfbb26c94014b7e2b089931c791cb5" to table: "activities"
DROP INDEX `activity_tenant_id_type_schedul_26cfbb26c94014b7e2b089931c791cb5`;
-- reverse: create index "activity_tenant_id_project_id_t_900b230ed725b75d0b784255b0bea3fa" to table: "activities"
DROP INDEX `activity_tenant_id_project_id_t_900b230ed725b75d0b784255b0bea3fa`;
-- reverse: drop index "activity_tenant_id_type_scheduled_at_id" from table: "activities"
CREATE INDEX `activity_tenant_id_type_scheduled_at_id` ON `activities` (`tenant_id`, `type`, `scheduled_at`, `id`);
-- reverse: drop index "activity_tenant_id_project_id_type_scheduled_at_id" from table: "activities"
CREATE INDEX `activity_tenant_id_project_id_type_scheduled_at_id` ON `activities` (`tenant_id`, `project_id`, `type`, `scheduled_at`, `id`);
-- reverse: create index "generationrule_tenant_id_activi_e7a088cef1d3bc8b31e1cf1acce98f29" to table: "generation_rules"
DROP INDEX `generationrule_tenant_id_activi_e7a088cef1d3bc8b31e1cf1acce98f29`;
-- reverse: drop index "generationrule_tenant_id_activi_d6a5163abbd67b748017d1af461260d3" from table: "generation_rules"
CREATE INDEX `generationrule_tenant_id_activi_d6a5163abbd67b748017d1af461260d3` ON `generation_rules` (`tenant_id`, `activity_generation_config_id`, `priority`, `id`) WHERE archived_at IS NULL;
-- reverse: create index "lifecyclerun_activity_generatio_952d1e75f33508622862dcc066eaeccc" to table: "lifecycle_runs"
DROP INDEX `lifecyclerun_activity_generatio_952d1e75f33508622862dcc066eaeccc`;
-- reverse: drop index "lifecyclerun_activity_generation_config_id_created_at_id" from table: "lifecycle_runs"
CREATE INDEX `lifecyclerun_activity_generation_config_id_created_at_id` ON `lifecycle_runs` (`activity_generation_config_id`, `created_at`, `id`);
-- reverse: create index "supervisor_tenant_id_name_id_email_external_id_is_active" to table: "supervisors"
DROP INDEX `supervisor_tenant_id_name_id_email_external_id_is_active`;
-- reverse: drop index "supervisor_tenant_id_name_id" from table: "supervisors"
CREATE INDEX `supervisor_tenant_id_name_id` ON `supervisors` (`tenant_id`, `name`, `id`) WHERE archived_at IS NULL;
-- reverse: create index "route_tenant_id_code_id_name_is_active" to table: "routes"
DROP INDEX `route_tenant_id_code_id_name_is_active`;
-- reverse: drop index "route_tenant_id_code_id" from table: "routes"
CREATE INDEX `route_tenant_id_code_id` ON `routes` (`tenant_id`, `code`, `id`) WHERE archived_at IS NULL;
-- reverse: create index "operator_tenant_id_name_id_email_external_id_type_is_active" to table: "operators"
DROP INDEX `operator_tenant_id_name_id_email_external_id_type_is_active`;
-- reverse: drop index "operator_tenant_id_name_id" from table: "operators"
CREATE INDEX `operator_tenant_id_name_id` ON `operators` (`tenant_id`, `name`, `id`) WHERE archived_at IS NULL;
-- reverse: create index "eventfilter_tenant_id_project_id_created_at_id_name" to table: "event_filters"
DROP INDEX `eventfilter_tenant_id_project_id_created_at_id_name`;
-- reverse: drop index "eventfilter_tenant_id_project_id_created_at_id" from table: "event_filters"
CREATE INDEX `eventfilter_tenant_id_project_id_created_at_id` ON `event_filters` (`tenant_id`, `project_id`, `created_at`, `id`) WHERE archived_at IS NULL;
-- reverse: create index "commerce_tenant_id_name_id" to table: "commerces"
DROP INDEX `commerce_tenant_id_name_id`;
-- reverse: create index "audience_tenant_id_project_id_is_root_created_at_id_name" to table: "audiences"
DROP INDEX `audience_tenant_id_project_id_is_root_created_at_id_name`;
-- reverse: drop index "audience_tenant_id_project_id_is_root_created_at_id" from table: "audiences"
CREATE INDEX `audience_tenant_id_project_id_is_root_created_at_id` ON `audiences` (`tenant_id`, `project_id`, `is_root`, `created_at`, `id`) WHERE archived_at IS NULL;
