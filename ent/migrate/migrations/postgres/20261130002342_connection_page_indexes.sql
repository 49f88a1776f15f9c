-- +goose Up
-- drop index "activationconfig_project_id" from table: "activation_configs"
DROP INDEX "activationconfig_project_id";
-- drop index "activationconfig_tenant_id" from table: "activation_configs"
DROP INDEX "activationconfig_tenant_id";
-- create index "activationconfig_project_id_id" to table: "activation_configs"
CREATE INDEX "activationconfig_project_id_id" ON "activation_configs" ("project_id", "id");
-- create index "activationconfig_tenant_id_id" to table: "activation_configs"
CREATE INDEX "activationconfig_tenant_id_id" ON "activation_configs" ("tenant_id", "id");
-- drop index "activationmoment_project_id" from table: "activation_moments"
DROP INDEX "activationmoment_project_id";
-- drop index "activationmoment_tenant_id" from table: "activation_moments"
DROP INDEX "activationmoment_tenant_id";
-- create index "activationmoment_project_id_id" to table: "activation_moments"
CREATE INDEX "activationmoment_project_id_id" ON "activation_moments" ("project_id", "id");
-- create index "activationmoment_tenant_id_id" to table: "activation_moments"
CREATE INDEX "activationmoment_tenant_id_id" ON "activation_moments" ("tenant_id", "id");
-- drop index "activity_project_id" from table: "activities"
DROP INDEX "activity_project_id";
-- drop index "activity_tenant_id" from table: "activities"
DROP INDEX "activity_tenant_id";
-- create index "activity_project_id_id" to table: "activities"
CREATE INDEX "activity_project_id_id" ON "activities" ("project_id", "id");
-- create index "activity_tenant_id_id" to table: "activities"
CREATE INDEX "activity_tenant_id_id" ON "activities" ("tenant_id", "id");
-- drop index "activityattribute_project_id" from table: "activity_attributes"
DROP INDEX "activityattribute_project_id";
-- drop index "activityattribute_tenant_id" from table: "activity_attributes"
DROP INDEX "activityattribute_tenant_id";
-- create index "activityattribute_project_id_id" to table: "activity_attributes"
CREATE INDEX "activityattribute_project_id_id" ON "activity_attributes" ("project_id", "id");
-- create index "activityattribute_tenant_id_id" to table: "activity_attributes"
CREATE INDEX "activityattribute_tenant_id_id" ON "activity_attributes" ("tenant_id", "id");
-- drop index "activitygenerationconfig_project_id" from table: "activity_generation_configs"
DROP INDEX "activitygenerationconfig_project_id";
-- drop index "activitygenerationconfig_tenant_id" from table: "activity_generation_configs"
DROP INDEX "activitygenerationconfig_tenant_id";
-- create index "activitygenerationconfig_project_id_id" to table: "activity_generation_configs"
CREATE INDEX "activitygenerationconfig_project_id_id" ON "activity_generation_configs" ("project_id", "id");
-- create index "activitygenerationconfig_tenant_id_id" to table: "activity_generation_configs"
CREATE INDEX "activitygenerationconfig_tenant_id_id" ON "activity_generation_configs" ("tenant_id", "id");
-- drop index "activityreasonconfig_tenant_id" from table: "activity_reason_configs"
DROP INDEX "activityreasonconfig_tenant_id";
-- create index "activityreasonconfig_tenant_id_id" to table: "activity_reason_configs"
CREATE INDEX "activityreasonconfig_tenant_id_id" ON "activity_reason_configs" ("tenant_id", "id");
-- drop index "activityresult_tenant_id" from table: "activity_results"
DROP INDEX "activityresult_tenant_id";
-- create index "activityresult_tenant_id_id" to table: "activity_results"
CREATE INDEX "activityresult_tenant_id_id" ON "activity_results" ("tenant_id", "id");
-- drop index "activitystatusevent_project_id" from table: "activity_status_events"
DROP INDEX "activitystatusevent_project_id";
-- drop index "activitystatusevent_tenant_id" from table: "activity_status_events"
DROP INDEX "activitystatusevent_tenant_id";
-- create index "activitystatusevent_project_id_id" to table: "activity_status_events"
CREATE INDEX "activitystatusevent_project_id_id" ON "activity_status_events" ("project_id", "id");
-- create index "activitystatusevent_tenant_id_id" to table: "activity_status_events"
CREATE INDEX "activitystatusevent_tenant_id_id" ON "activity_status_events" ("tenant_id", "id");
-- drop index "apikey_tenant_id" from table: "api_keys"
DROP INDEX "apikey_tenant_id";
-- create index "apikey_tenant_id_id" to table: "api_keys"
CREATE INDEX "apikey_tenant_id_id" ON "api_keys" ("tenant_id", "id");
-- drop index "audiencecomposition_project_id" from table: "audience_compositions"
DROP INDEX "audiencecomposition_project_id";
-- drop index "audiencecomposition_tenant_id" from table: "audience_compositions"
DROP INDEX "audiencecomposition_tenant_id";
-- create index "audiencecomposition_project_id_id" to table: "audience_compositions"
CREATE INDEX "audiencecomposition_project_id_id" ON "audience_compositions" ("project_id", "id");
-- create index "audiencecomposition_tenant_id_id" to table: "audience_compositions"
CREATE INDEX "audiencecomposition_tenant_id_id" ON "audience_compositions" ("tenant_id", "id");
-- drop index "audience_project_id" from table: "audiences"
DROP INDEX "audience_project_id";
-- drop index "audience_tenant_id" from table: "audiences"
DROP INDEX "audience_tenant_id";
-- create index "audience_project_id_id" to table: "audiences"
CREATE INDEX "audience_project_id_id" ON "audiences" ("project_id", "id");
-- create index "audience_tenant_id_id" to table: "audiences"
CREATE INDEX "audience_tenant_id_id" ON "audiences" ("tenant_id", "id");
-- drop index "catalogcolumn_tenant_id" from table: "catalog_columns"
DROP INDEX "catalogcolumn_tenant_id";
-- create index "catalogcolumn_tenant_id_id" to table: "catalog_columns"
CREATE INDEX "catalogcolumn_tenant_id_id" ON "catalog_columns" ("tenant_id", "id");
-- drop index "catalogsemijoin_tenant_id" from table: "catalog_semi_joins"
DROP INDEX "catalogsemijoin_tenant_id";
-- create index "catalogsemijoin_tenant_id_id" to table: "catalog_semi_joins"
CREATE INDEX "catalogsemijoin_tenant_id_id" ON "catalog_semi_joins" ("tenant_id", "id");
-- drop index "catalogtable_tenant_id" from table: "catalog_tables"
DROP INDEX "catalogtable_tenant_id";
-- create index "catalogtable_tenant_id_id" to table: "catalog_tables"
CREATE INDEX "catalogtable_tenant_id_id" ON "catalog_tables" ("tenant_id", "id");
-- drop index "channeldefinition_tenant_id" from table: "channel_definitions"
DROP INDEX "channeldefinition_tenant_id";
-- create index "channeldefinition_tenant_id_id" to table: "channel_definitions"
CREATE INDEX "channeldefinition_tenant_id_id" ON "channel_definitions" ("tenant_id", "id");
-- drop index "commerceaddress_tenant_id" from table: "commerce_addresses"
DROP INDEX "commerceaddress_tenant_id";
-- create index "commerceaddress_tenant_id_id" to table: "commerce_addresses"
CREATE INDEX "commerceaddress_tenant_id_id" ON "commerce_addresses" ("tenant_id", "id");
-- drop index "commercecontact_tenant_id" from table: "commerce_contacts"
DROP INDEX "commercecontact_tenant_id";
-- create index "commercecontact_tenant_id_id" to table: "commerce_contacts"
CREATE INDEX "commercecontact_tenant_id_id" ON "commerce_contacts" ("tenant_id", "id");
-- drop index "commercelifecyclesnapshot_tenant_id" from table: "commerce_lifecycle_snapshots"
DROP INDEX "commercelifecyclesnapshot_tenant_id";
-- create index "commercelifecyclesnapshot_tenant_id_id" to table: "commerce_lifecycle_snapshots"
CREATE INDEX "commercelifecyclesnapshot_tenant_id_id" ON "commerce_lifecycle_snapshots" ("tenant_id", "id");
-- drop index "commerceroute_tenant_id" from table: "commerce_routes"
DROP INDEX "commerceroute_tenant_id";
-- create index "commerceroute_tenant_id_id" to table: "commerce_routes"
CREATE INDEX "commerceroute_tenant_id_id" ON "commerce_routes" ("tenant_id", "id");
-- drop index "commerceuserrole_tenant_id" from table: "commerce_user_roles"
DROP INDEX "commerceuserrole_tenant_id";
-- create index "commerceuserrole_tenant_id_id" to table: "commerce_user_roles"
CREATE INDEX "commerceuserrole_tenant_id_id" ON "commerce_user_roles" ("tenant_id", "id");
-- drop index "commerceuser_tenant_id" from table: "commerce_users"
DROP INDEX "commerceuser_tenant_id";
-- create index "commerceuser_tenant_id_id" to table: "commerce_users"
CREATE INDEX "commerceuser_tenant_id_id" ON "commerce_users" ("tenant_id", "id");
-- drop index "commerce_tenant_id" from table: "commerces"
DROP INDEX "commerce_tenant_id";
-- create index "commerce_tenant_id_id" to table: "commerces"
CREATE INDEX "commerce_tenant_id_id" ON "commerces" ("tenant_id", "id");
-- drop index "dispatchconfig_project_id" from table: "dispatch_configs"
DROP INDEX "dispatchconfig_project_id";
-- drop index "dispatchconfig_tenant_id" from table: "dispatch_configs"
DROP INDEX "dispatchconfig_tenant_id";
-- create index "dispatchconfig_project_id_id" to table: "dispatch_configs"
CREATE INDEX "dispatchconfig_project_id_id" ON "dispatch_configs" ("project_id", "id");
-- create index "dispatchconfig_tenant_id_id" to table: "dispatch_configs"
CREATE INDEX "dispatchconfig_tenant_id_id" ON "dispatch_configs" ("tenant_id", "id");
-- drop index "dispatchprovider_tenant_id" from table: "dispatch_providers"
DROP INDEX "dispatchprovider_tenant_id";
-- create index "dispatchprovider_tenant_id_id" to table: "dispatch_providers"
CREATE INDEX "dispatchprovider_tenant_id_id" ON "dispatch_providers" ("tenant_id", "id");
-- drop index "engagementconfig_project_id" from table: "engagement_configs"
DROP INDEX "engagementconfig_project_id";
-- drop index "engagementconfig_tenant_id" from table: "engagement_configs"
DROP INDEX "engagementconfig_tenant_id";
-- create index "engagementconfig_project_id_id" to table: "engagement_configs"
CREATE INDEX "engagementconfig_project_id_id" ON "engagement_configs" ("project_id", "id");
-- create index "engagementconfig_tenant_id_id" to table: "engagement_configs"
CREATE INDEX "engagementconfig_tenant_id_id" ON "engagement_configs" ("tenant_id", "id");
-- drop index "engagementlevel_project_id" from table: "engagement_levels"
DROP INDEX "engagementlevel_project_id";
-- drop index "engagementlevel_tenant_id" from table: "engagement_levels"
DROP INDEX "engagementlevel_tenant_id";
-- create index "engagementlevel_project_id_id" to table: "engagement_levels"
CREATE INDEX "engagementlevel_project_id_id" ON "engagement_levels" ("project_id", "id");
-- create index "engagementlevel_tenant_id_id" to table: "engagement_levels"
CREATE INDEX "engagementlevel_tenant_id_id" ON "engagement_levels" ("tenant_id", "id");
-- drop index "eventfilter_project_id" from table: "event_filters"
DROP INDEX "eventfilter_project_id";
-- drop index "eventfilter_tenant_id" from table: "event_filters"
DROP INDEX "eventfilter_tenant_id";
-- create index "eventfilter_project_id_id" to table: "event_filters"
CREATE INDEX "eventfilter_project_id_id" ON "event_filters" ("project_id", "id");
-- create index "eventfilter_tenant_id_id" to table: "event_filters"
CREATE INDEX "eventfilter_tenant_id_id" ON "event_filters" ("tenant_id", "id");
-- drop index "generationpolicy_project_id" from table: "generation_policies"
DROP INDEX "generationpolicy_project_id";
-- drop index "generationpolicy_tenant_id" from table: "generation_policies"
DROP INDEX "generationpolicy_tenant_id";
-- create index "generationpolicy_project_id_id" to table: "generation_policies"
CREATE INDEX "generationpolicy_project_id_id" ON "generation_policies" ("project_id", "id");
-- create index "generationpolicy_tenant_id_id" to table: "generation_policies"
CREATE INDEX "generationpolicy_tenant_id_id" ON "generation_policies" ("tenant_id", "id");
-- drop index "generationrule_project_id" from table: "generation_rules"
DROP INDEX "generationrule_project_id";
-- drop index "generationrule_tenant_id" from table: "generation_rules"
DROP INDEX "generationrule_tenant_id";
-- create index "generationrule_project_id_id" to table: "generation_rules"
CREATE INDEX "generationrule_project_id_id" ON "generation_rules" ("project_id", "id");
-- create index "generationrule_tenant_id_id" to table: "generation_rules"
CREATE INDEX "generationrule_tenant_id_id" ON "generation_rules" ("tenant_id", "id");
-- drop index "generationsettings_project_id" from table: "generation_settings"
DROP INDEX "generationsettings_project_id";
-- drop index "generationsettings_tenant_id" from table: "generation_settings"
DROP INDEX "generationsettings_tenant_id";
-- create index "generationsettings_project_id_id" to table: "generation_settings"
CREATE INDEX "generationsettings_project_id_id" ON "generation_settings" ("project_id", "id");
-- create index "generationsettings_tenant_id_id" to table: "generation_settings"
CREATE INDEX "generationsettings_tenant_id_id" ON "generation_settings" ("tenant_id", "id");
-- drop index "idempotencyrecord_tenant_id" from table: "idempotency_records"
DROP INDEX "idempotencyrecord_tenant_id";
-- create index "idempotencyrecord_tenant_id_id" to table: "idempotency_records"
CREATE INDEX "idempotencyrecord_tenant_id_id" ON "idempotency_records" ("tenant_id", "id");
-- drop index "lifecyclerun_project_id" from table: "lifecycle_runs"
DROP INDEX "lifecyclerun_project_id";
-- drop index "lifecyclerun_tenant_id" from table: "lifecycle_runs"
DROP INDEX "lifecyclerun_tenant_id";
-- create index "lifecyclerun_project_id_id" to table: "lifecycle_runs"
CREATE INDEX "lifecyclerun_project_id_id" ON "lifecycle_runs" ("project_id", "id");
-- create index "lifecyclerun_tenant_id_id" to table: "lifecycle_runs"
CREATE INDEX "lifecyclerun_tenant_id_id" ON "lifecycle_runs" ("tenant_id", "id");
-- drop index "membership_tenant_id" from table: "memberships"
DROP INDEX "membership_tenant_id";
-- create index "membership_tenant_id_id" to table: "memberships"
CREATE INDEX "membership_tenant_id_id" ON "memberships" ("tenant_id", "id");
-- drop index "operator_tenant_id" from table: "operators"
DROP INDEX "operator_tenant_id";
-- create index "operator_tenant_id_id" to table: "operators"
CREATE INDEX "operator_tenant_id_id" ON "operators" ("tenant_id", "id");
-- drop index "project_tenant_id" from table: "projects"
DROP INDEX "project_tenant_id";
-- create index "project_tenant_id_id" to table: "projects"
CREATE INDEX "project_tenant_id_id" ON "projects" ("tenant_id", "id");
-- drop index "queryblock_project_id" from table: "query_blocks"
DROP INDEX "queryblock_project_id";
-- drop index "queryblock_tenant_id" from table: "query_blocks"
DROP INDEX "queryblock_tenant_id";
-- create index "queryblock_project_id_id" to table: "query_blocks"
CREATE INDEX "queryblock_project_id_id" ON "query_blocks" ("project_id", "id");
-- create index "queryblock_tenant_id_id" to table: "query_blocks"
CREATE INDEX "queryblock_tenant_id_id" ON "query_blocks" ("tenant_id", "id");
-- drop index "resurrectionconfig_project_id" from table: "resurrection_configs"
DROP INDEX "resurrectionconfig_project_id";
-- drop index "resurrectionconfig_tenant_id" from table: "resurrection_configs"
DROP INDEX "resurrectionconfig_tenant_id";
-- create index "resurrectionconfig_project_id_id" to table: "resurrection_configs"
CREATE INDEX "resurrectionconfig_project_id_id" ON "resurrection_configs" ("project_id", "id");
-- create index "resurrectionconfig_tenant_id_id" to table: "resurrection_configs"
CREATE INDEX "resurrectionconfig_tenant_id_id" ON "resurrection_configs" ("tenant_id", "id");
-- drop index "resurrectionthreshold_project_id" from table: "resurrection_thresholds"
DROP INDEX "resurrectionthreshold_project_id";
-- drop index "resurrectionthreshold_tenant_id" from table: "resurrection_thresholds"
DROP INDEX "resurrectionthreshold_tenant_id";
-- create index "resurrectionthreshold_project_id_id" to table: "resurrection_thresholds"
CREATE INDEX "resurrectionthreshold_project_id_id" ON "resurrection_thresholds" ("project_id", "id");
-- create index "resurrectionthreshold_tenant_id_id" to table: "resurrection_thresholds"
CREATE INDEX "resurrectionthreshold_tenant_id_id" ON "resurrection_thresholds" ("tenant_id", "id");
-- drop index "retentionstatusconfig_tenant_id" from table: "retention_status_configs"
DROP INDEX "retentionstatusconfig_tenant_id";
-- create index "retentionstatusconfig_tenant_id_id" to table: "retention_status_configs"
CREATE INDEX "retentionstatusconfig_tenant_id_id" ON "retention_status_configs" ("tenant_id", "id");
-- drop index "routeoperator_tenant_id" from table: "route_operators"
DROP INDEX "routeoperator_tenant_id";
-- create index "routeoperator_tenant_id_id" to table: "route_operators"
CREATE INDEX "routeoperator_tenant_id_id" ON "route_operators" ("tenant_id", "id");
-- drop index "route_tenant_id" from table: "routes"
DROP INDEX "route_tenant_id";
-- create index "route_tenant_id_id" to table: "routes"
CREATE INDEX "route_tenant_id_id" ON "routes" ("tenant_id", "id");
-- drop index "supervisorassignment_tenant_id" from table: "supervisor_assignments"
DROP INDEX "supervisorassignment_tenant_id";
-- create index "supervisorassignment_tenant_id_id" to table: "supervisor_assignments"
CREATE INDEX "supervisorassignment_tenant_id_id" ON "supervisor_assignments" ("tenant_id", "id");
-- drop index "supervisor_tenant_id" from table: "supervisors"
DROP INDEX "supervisor_tenant_id";
-- create index "supervisor_tenant_id_id" to table: "supervisors"
CREATE INDEX "supervisor_tenant_id_id" ON "supervisors" ("tenant_id", "id");
-- drop index "tenantdataset_tenant_id" from table: "tenant_datasets"
DROP INDEX "tenantdataset_tenant_id";
-- create index "tenantdataset_tenant_id_id" to table: "tenant_datasets"
CREATE INDEX "tenantdataset_tenant_id_id" ON "tenant_datasets" ("tenant_id", "id");
-- drop index "tenantresulttypeconfig_tenant_id" from table: "tenant_result_type_configs"
DROP INDEX "tenantresulttypeconfig_tenant_id";
-- create index "tenantresulttypeconfig_tenant_id_id" to table: "tenant_result_type_configs"
CREATE INDEX "tenantresulttypeconfig_tenant_id_id" ON "tenant_result_type_configs" ("tenant_id", "id");
-- drop index "trashrecord_tenant_id" from table: "trash_records"
DROP INDEX "trashrecord_tenant_id";
-- create index "trashrecord_tenant_id_id" to table: "trash_records"
CREATE INDEX "trashrecord_tenant_id_id" ON "trash_records" ("tenant_id", "id");
-- drop index "trashsetting_tenant_id" from table: "trash_settings"
DROP INDEX "trashsetting_tenant_id";
-- create index "trashsetting_tenant_id_id" to table: "trash_settings"
CREATE INDEX "trashsetting_tenant_id_id" ON "trash_settings" ("tenant_id", "id");
-- drop index "webhookendpoint_tenant_id" from table: "webhook_endpoints"
DROP INDEX "webhookendpoint_tenant_id";
-- create index "webhookendpoint_tenant_id_id" to table: "webhook_endpoints"
CREATE INDEX "webhookendpoint_tenant_id_id" ON "webhook_endpoints" ("tenant_id", "id");

-- +goose Down
-- reverse: create index "webhookendpoint_tenant_id_id" to table: "webhook_endpoints"
DROP INDEX "webhookendpoint_tenant_id_id";
-- reverse: drop index "webhookendpoint_tenant_id" from table: "webhook_endpoints"
CREATE INDEX "webhookendpoint_tenant_id" ON "webhook_endpoints" ("tenant_id");
-- reverse: create index "trashsetting_tenant_id_id" to table: "trash_settings"
DROP INDEX "trashsetting_tenant_id_id";
-- reverse: drop index "trashsetting_tenant_id" from table: "trash_settings"
CREATE INDEX "trashsetting_tenant_id" ON "trash_settings" ("tenant_id");
-- reverse: create index "trashrecord_tenant_id_id" to table: "trash_records"
DROP INDEX "trashrecord_tenant_id_id";
-- reverse: drop index "trashrecord_tenant_id" from table: "trash_records"
CREATE INDEX "trashrecord_tenant_id" ON "trash_records" ("tenant_id");
-- reverse: create index "tenantresulttypeconfig_tenant_id_id" to table: "tenant_result_type_configs"
DROP INDEX "tenantresulttypeconfig_tenant_id_id";
-- reverse: drop index "tenantresulttypeconfig_tenant_id" from table: "tenant_result_type_configs"
CREATE INDEX "tenantresulttypeconfig_tenant_id" ON "tenant_result_type_configs" ("tenant_id");
-- reverse: create index "tenantdataset_tenant_id_id" to table: "tenant_datasets"
DROP INDEX "tenantdataset_tenant_id_id";
-- reverse: drop index "tenantdataset_tenant_id" from table: "tenant_datasets"
CREATE INDEX "tenantdataset_tenant_id" ON "tenant_datasets" ("tenant_id");
-- reverse: create index "supervisor_tenant_id_id" to table: "supervisors"
DROP INDEX "supervisor_tenant_id_id";
-- reverse: drop index "supervisor_tenant_id" from table: "supervisors"
CREATE INDEX "supervisor_tenant_id" ON "supervisors" ("tenant_id");
-- reverse: create index "supervisorassignment_tenant_id_id" to table: "supervisor_assignments"
DROP INDEX "supervisorassignment_tenant_id_id";
-- reverse: drop index "supervisorassignment_tenant_id" from table: "supervisor_assignments"
CREATE INDEX "supervisorassignment_tenant_id" ON "supervisor_assignments" ("tenant_id");
-- reverse: create index "route_tenant_id_id" to table: "routes"
DROP INDEX "route_tenant_id_id";
-- reverse: drop index "route_tenant_id" from table: "routes"
CREATE INDEX "route_tenant_id" ON "routes" ("tenant_id");
-- reverse: create index "routeoperator_tenant_id_id" to table: "route_operators"
DROP INDEX "routeoperator_tenant_id_id";
-- reverse: drop index "routeoperator_tenant_id" from table: "route_operators"
CREATE INDEX "routeoperator_tenant_id" ON "route_operators" ("tenant_id");
-- reverse: create index "retentionstatusconfig_tenant_id_id" to table: "retention_status_configs"
DROP INDEX "retentionstatusconfig_tenant_id_id";
-- reverse: drop index "retentionstatusconfig_tenant_id" from table: "retention_status_configs"
CREATE INDEX "retentionstatusconfig_tenant_id" ON "retention_status_configs" ("tenant_id");
-- reverse: create index "resurrectionthreshold_tenant_id_id" to table: "resurrection_thresholds"
DROP INDEX "resurrectionthreshold_tenant_id_id";
-- reverse: create index "resurrectionthreshold_project_id_id" to table: "resurrection_thresholds"
DROP INDEX "resurrectionthreshold_project_id_id";
-- reverse: drop index "resurrectionthreshold_tenant_id" from table: "resurrection_thresholds"
CREATE INDEX "resurrectionthreshold_tenant_id" ON "resurrection_thresholds" ("tenant_id");
-- reverse: drop index "resurrectionthreshold_project_id" from table: "resurrection_thresholds"
CREATE INDEX "resurrectionthreshold_project_id" ON "resurrection_thresholds" ("project_id");
-- reverse: create index "resurrectionconfig_tenant_id_id" to table: "resurrection_configs"
DROP INDEX "resurrectionconfig_tenant_id_id";
-- reverse: create index "resurrectionconfig_project_id_id" to table: "resurrection_configs"
DROP INDEX "resurrectionconfig_project_id_id";
-- reverse: drop index "resurrectionconfig_tenant_id" from table: "resurrection_configs"
CREATE INDEX "resurrectionconfig_tenant_id" ON "resurrection_configs" ("tenant_id");
-- reverse: drop index "resurrectionconfig_project_id" from table: "resurrection_configs"
CREATE INDEX "resurrectionconfig_project_id" ON "resurrection_configs" ("project_id");
-- reverse: create index "queryblock_tenant_id_id" to table: "query_blocks"
DROP INDEX "queryblock_tenant_id_id";
-- reverse: create index "queryblock_project_id_id" to table: "query_blocks"
DROP INDEX "queryblock_project_id_id";
-- reverse: drop index "queryblock_tenant_id" from table: "query_blocks"
CREATE INDEX "queryblock_tenant_id" ON "query_blocks" ("tenant_id");
-- reverse: drop index "queryblock_project_id" from table: "query_blocks"
CREATE INDEX "queryblock_project_id" ON "query_blocks" ("project_id");
-- reverse: create index "project_tenant_id_id" to table: "projects"
DROP INDEX "project_tenant_id_id";
-- reverse: drop index "project_tenant_id" from table: "projects"
CREATE INDEX "project_tenant_id" ON "projects" ("tenant_id");
-- reverse: create index "operator_tenant_id_id" to table: "operators"
DROP INDEX "operator_tenant_id_id";
-- reverse: drop index "operator_tenant_id" from table: "operators"
CREATE INDEX "operator_tenant_id" ON "operators" ("tenant_id");
-- reverse: create index "membership_tenant_id_id" to table: "memberships"
DROP INDEX "membership_tenant_id_id";
-- reverse: drop index "membership_tenant_id" from table: "memberships"
CREATE INDEX "membership_tenant_id" ON "memberships" ("tenant_id");
-- reverse: create index "lifecyclerun_tenant_id_id" to table: "lifecycle_runs"
DROP INDEX "lifecyclerun_tenant_id_id";
-- reverse: create index "lifecyclerun_project_id_id" to table: "lifecycle_runs"
DROP INDEX "lifecyclerun_project_id_id";
-- reverse: drop index "lifecyclerun_tenant_id" from table: "lifecycle_runs"
CREATE INDEX "lifecyclerun_tenant_id" ON "lifecycle_runs" ("tenant_id");
-- reverse: drop index "lifecyclerun_project_id" from table: "lifecycle_runs"
CREATE INDEX "lifecyclerun_project_id" ON "lifecycle_runs" ("project_id");
-- reverse: create index "idempotencyrecord_tenant_id_id" to table: "idempotency_records"
DROP INDEX "idempotencyrecord_tenant_id_id";
-- reverse: drop index "idempotencyrecord_tenant_id" from table: "idempotency_records"
CREATE INDEX "idempotencyrecord_tenant_id" ON "idempotency_records" ("tenant_id");
-- reverse: create index "generationsettings_tenant_id_id" to table: "generation_settings"
DROP INDEX "generationsettings_tenant_id_id";
-- reverse: create index "generationsettings_project_id_id" to table: "generation_settings"
DROP INDEX "generationsettings_project_id_id";
-- reverse: drop index "generationsettings_tenant_id" from table: "generation_settings"
CREATE INDEX "generationsettings_tenant_id" ON "generation_settings" ("tenant_id");
-- reverse: drop index "generationsettings_project_id" from table: "generation_settings"
CREATE INDEX "generationsettings_project_id" ON "generation_settings" ("project_id");
-- reverse: create index "generationrule_tenant_id_id" to table: "generation_rules"
DROP INDEX "generationrule_tenant_id_id";
-- reverse: create index "generationrule_project_id_id" to table: "generation_rules"
DROP INDEX "generationrule_project_id_id";
-- reverse: drop index "generationrule_tenant_id" from table: "generation_rules"
CREATE INDEX "generationrule_tenant_id" ON "generation_rules" ("tenant_id");
-- reverse: drop index "generationrule_project_id" from table: "generation_rules"
CREATE INDEX "generationrule_project_id" ON "generation_rules" ("project_id");
-- reverse: create index "generationpolicy_tenant_id_id" to table: "generation_policies"
DROP INDEX "generationpolicy_tenant_id_id";
-- reverse: create index "generationpolicy_project_id_id" to table: "generation_policies"
DROP INDEX "generationpolicy_project_id_id";
-- reverse: drop index "generationpolicy_tenant_id" from table: "generation_policies"
CREATE INDEX "generationpolicy_tenant_id" ON "generation_policies" ("tenant_id");
-- reverse: drop index "generationpolicy_project_id" from table: "generation_policies"
CREATE INDEX "generationpolicy_project_id" ON "generation_policies" ("project_id");
-- reverse: create index "eventfilter_tenant_id_id" to table: "event_filters"
DROP INDEX "eventfilter_tenant_id_id";
-- reverse: create index "eventfilter_project_id_id" to table: "event_filters"
DROP INDEX "eventfilter_project_id_id";
-- reverse: drop index "eventfilter_tenant_id" from table: "event_filters"
CREATE INDEX "eventfilter_tenant_id" ON "event_filters" ("tenant_id");
-- reverse: drop index "eventfilter_project_id" from table: "event_filters"
CREATE INDEX "eventfilter_project_id" ON "event_filters" ("project_id");
-- reverse: create index "engagementlevel_tenant_id_id" to table: "engagement_levels"
DROP INDEX "engagementlevel_tenant_id_id";
-- reverse: create index "engagementlevel_project_id_id" to table: "engagement_levels"
DROP INDEX "engagementlevel_project_id_id";
-- reverse: drop index "engagementlevel_tenant_id" from table: "engagement_levels"
CREATE INDEX "engagementlevel_tenant_id" ON "engagement_levels" ("tenant_id");
-- reverse: drop index "engagementlevel_project_id" from table: "engagement_levels"
CREATE INDEX "engagementlevel_project_id" ON "engagement_levels" ("project_id");
-- reverse: create index "engagementconfig_tenant_id_id" to table: "engagement_configs"
DROP INDEX "engagementconfig_tenant_id_id";
-- reverse: create index "engagementconfig_project_id_id" to table: "engagement_configs"
DROP INDEX "engagementconfig_project_id_id";
-- reverse: drop index "engagementconfig_tenant_id" from table: "engagement_configs"
CREATE INDEX "engagementconfig_tenant_id" ON "engagement_configs" ("tenant_id");
-- reverse: drop index "engagementconfig_project_id" from table: "engagement_configs"
CREATE INDEX "engagementconfig_project_id" ON "engagement_configs" ("project_id");
-- reverse: create index "dispatchprovider_tenant_id_id" to table: "dispatch_providers"
DROP INDEX "dispatchprovider_tenant_id_id";
-- reverse: drop index "dispatchprovider_tenant_id" from table: "dispatch_providers"
CREATE INDEX "dispatchprovider_tenant_id" ON "dispatch_providers" ("tenant_id");
-- reverse: create index "dispatchconfig_tenant_id_id" to table: "dispatch_configs"
DROP INDEX "dispatchconfig_tenant_id_id";
-- reverse: create index "dispatchconfig_project_id_id" to table: "dispatch_configs"
DROP INDEX "dispatchconfig_project_id_id";
-- reverse: drop index "dispatchconfig_tenant_id" from table: "dispatch_configs"
CREATE INDEX "dispatchconfig_tenant_id" ON "dispatch_configs" ("tenant_id");
-- reverse: drop index "dispatchconfig_project_id" from table: "dispatch_configs"
CREATE INDEX "dispatchconfig_project_id" ON "dispatch_configs" ("project_id");
-- reverse: create index "commerce_tenant_id_id" to table: "commerces"
DROP INDEX "commerce_tenant_id_id";
-- reverse: drop index "commerce_tenant_id" from table: "commerces"
CREATE INDEX "commerce_tenant_id" ON "commerces" ("tenant_id");
-- reverse: create index "commerceuser_tenant_id_id" to table: "commerce_users"
DROP INDEX "commerceuser_tenant_id_id";
-- reverse: drop index "commerceuser_tenant_id" from table: "commerce_users"
CREATE INDEX "commerceuser_tenant_id" ON "commerce_users" ("tenant_id");
-- reverse: create index "commerceuserrole_tenant_id_id" to table: "commerce_user_roles"
DROP INDEX "commerceuserrole_tenant_id_id";
-- reverse: drop index "commerceuserrole_tenant_id" from table: "commerce_user_roles"
CREATE INDEX "commerceuserrole_tenant_id" ON "commerce_user_roles" ("tenant_id");
-- reverse: create index "commerceroute_tenant_id_id" to table: "commerce_routes"
DROP INDEX "commerceroute_tenant_id_id";
-- reverse: drop index "commerceroute_tenant_id" from table: "commerce_routes"
CREATE INDEX "commerceroute_tenant_id" ON "commerce_routes" ("tenant_id");
-- reverse: create index "commercelifecyclesnapshot_tenant_id_id" to table: "commerce_lifecycle_snapshots"
DROP INDEX "commercelifecyclesnapshot_tenant_id_id";
-- reverse: drop index "commercelifecyclesnapshot_tenant_id" from table: "commerce_lifecycle_snapshots"
CREATE INDEX "commercelifecyclesnapshot_tenant_id" ON "commerce_lifecycle_snapshots" ("tenant_id");
-- reverse: create index "commercecontact_tenant_id_id" to table: "commerce_contacts"
DROP INDEX "commercecontact_tenant_id_id";
-- reverse: drop index "commercecontact_tenant_id" from table: "commerce_contacts"
CREATE INDEX "commercecontact_tenant_id" ON "commerce_contacts" ("tenant_id");
-- reverse: create index "commerceaddress_tenant_id_id" to table: "commerce_addresses"
DROP INDEX "commerceaddress_tenant_id_id";
-- reverse: drop index "commerceaddress_tenant_id" from table: "commerce_addresses"
CREATE INDEX "commerceaddress_tenant_id" ON "commerce_addresses" ("tenant_id");
-- reverse: create index "channeldefinition_tenant_id_id" to table: "channel_definitions"
DROP INDEX "channeldefinition_tenant_id_id";
-- reverse: drop index "channeldefinition_tenant_id" from table: "channel_definitions"
CREATE INDEX "channeldefinition_tenant_id" ON "channel_definitions" ("tenant_id");
-- reverse: create index "catalogtable_tenant_id_id" to table: "catalog_tables"
DROP INDEX "catalogtable_tenant_id_id";
-- reverse: drop index "catalogtable_tenant_id" from table: "catalog_tables"
CREATE INDEX "catalogtable_tenant_id" ON "catalog_tables" ("tenant_id");
-- reverse: create index "catalogsemijoin_tenant_id_id" to table: "catalog_semi_joins"
DROP INDEX "catalogsemijoin_tenant_id_id";
-- reverse: drop index "catalogsemijoin_tenant_id" from table: "catalog_semi_joins"
CREATE INDEX "catalogsemijoin_tenant_id" ON "catalog_semi_joins" ("tenant_id");
-- reverse: create index "catalogcolumn_tenant_id_id" to table: "catalog_columns"
DROP INDEX "catalogcolumn_tenant_id_id";
-- reverse: drop index "catalogcolumn_tenant_id" from table: "catalog_columns"
CREATE INDEX "catalogcolumn_tenant_id" ON "catalog_columns" ("tenant_id");
-- reverse: create index "audience_tenant_id_id" to table: "audiences"
DROP INDEX "audience_tenant_id_id";
-- reverse: create index "audience_project_id_id" to table: "audiences"
DROP INDEX "audience_project_id_id";
-- reverse: drop index "audience_tenant_id" from table: "audiences"
CREATE INDEX "audience_tenant_id" ON "audiences" ("tenant_id");
-- reverse: drop index "audience_project_id" from table: "audiences"
CREATE INDEX "audience_project_id" ON "audiences" ("project_id");
-- reverse: create index "audiencecomposition_tenant_id_id" to table: "audience_compositions"
DROP INDEX "audiencecomposition_tenant_id_id";
-- reverse: create index "audiencecomposition_project_id_id" to table: "audience_compositions"
DROP INDEX "audiencecomposition_project_id_id";
-- reverse: drop index "audiencecomposition_tenant_id" from table: "audience_compositions"
CREATE INDEX "audiencecomposition_tenant_id" ON "audience_compositions" ("tenant_id");
-- reverse: drop index "audiencecomposition_project_id" from table: "audience_compositions"
CREATE INDEX "audiencecomposition_project_id" ON "audience_compositions" ("project_id");
-- reverse: create index "apikey_tenant_id_id" to table: "api_keys"
DROP INDEX "apikey_tenant_id_id";
-- reverse: drop index "apikey_tenant_id" from table: "api_keys"
CREATE INDEX "apikey_tenant_id" ON "api_keys" ("tenant_id");
-- reverse: create index "activitystatusevent_tenant_id_id" to table: "activity_status_events"
DROP INDEX "activitystatusevent_tenant_id_id";
-- reverse: create index "activitystatusevent_project_id_id" to table: "activity_status_events"
DROP INDEX "activitystatusevent_project_id_id";
-- reverse: drop index "activitystatusevent_tenant_id" from table: "activity_status_events"
CREATE INDEX "activitystatusevent_tenant_id" ON "activity_status_events" ("tenant_id");
-- reverse: drop index "activitystatusevent_project_id" from table: "activity_status_events"
CREATE INDEX "activitystatusevent_project_id" ON "activity_status_events" ("project_id");
-- reverse: create index "activityresult_tenant_id_id" to table: "activity_results"
DROP INDEX "activityresult_tenant_id_id";
-- reverse: drop index "activityresult_tenant_id" from table: "activity_results"
CREATE INDEX "activityresult_tenant_id" ON "activity_results" ("tenant_id");
-- reverse: create index "activityreasonconfig_tenant_id_id" to table: "activity_reason_configs"
DROP INDEX "activityreasonconfig_tenant_id_id";
-- reverse: drop index "activityreasonconfig_tenant_id" from table: "activity_reason_configs"
CREATE INDEX "activityreasonconfig_tenant_id" ON "activity_reason_configs" ("tenant_id");
-- reverse: create index "activitygenerationconfig_tenant_id_id" to table: "activity_generation_configs"
DROP INDEX "activitygenerationconfig_tenant_id_id";
-- reverse: create index "activitygenerationconfig_project_id_id" to table: "activity_generation_configs"
DROP INDEX "activitygenerationconfig_project_id_id";
-- reverse: drop index "activitygenerationconfig_tenant_id" from table: "activity_generation_configs"
CREATE INDEX "activitygenerationconfig_tenant_id" ON "activity_generation_configs" ("tenant_id");
-- reverse: drop index "activitygenerationconfig_project_id" from table: "activity_generation_configs"
CREATE INDEX "activitygenerationconfig_project_id" ON "activity_generation_configs" ("project_id");
-- reverse: create index "activityattribute_tenant_id_id" to table: "activity_attributes"
DROP INDEX "activityattribute_tenant_id_id";
-- reverse: create index "activityattribute_project_id_id" to table: "activity_attributes"
DROP INDEX "activityattribute_project_id_id";
-- reverse: drop index "activityattribute_tenant_id" from table: "activity_attributes"
CREATE INDEX "activityattribute_tenant_id" ON "activity_attributes" ("tenant_id");
-- reverse: drop index "activityattribute_project_id" from table: "activity_attributes"
CREATE INDEX "activityattribute_project_id" ON "activity_attributes" ("project_id");
-- reverse: create index "activity_tenant_id_id" to table: "activities"
DROP INDEX "activity_tenant_id_id";
-- reverse: create index "activity_project_id_id" to table: "activities"
DROP INDEX "activity_project_id_id";
-- reverse: drop index "activity_tenant_id" from table: "activities"
CREATE INDEX "activity_tenant_id" ON "activities" ("tenant_id");
-- reverse: drop index "activity_project_id" from table: "activities"
CREATE INDEX "activity_project_id" ON "activities" ("project_id");
-- reverse: create index "activationmoment_tenant_id_id" to table: "activation_moments"
DROP INDEX "activationmoment_tenant_id_id";
-- reverse: create index "activationmoment_project_id_id" to table: "activation_moments"
DROP INDEX "activationmoment_project_id_id";
-- reverse: drop index "activationmoment_tenant_id" from table: "activation_moments"
CREATE INDEX "activationmoment_tenant_id" ON "activation_moments" ("tenant_id");
-- reverse: drop index "activationmoment_project_id" from table: "activation_moments"
CREATE INDEX "activationmoment_project_id" ON "activation_moments" ("project_id");
-- reverse: create index "activationconfig_tenant_id_id" to table: "activation_configs"
DROP INDEX "activationconfig_tenant_id_id";
-- reverse: create index "activationconfig_project_id_id" to table: "activation_configs"
DROP INDEX "activationconfig_project_id_id";
-- reverse: drop index "activationconfig_tenant_id" from table: "activation_configs"
CREATE INDEX "activationconfig_tenant_id" ON "activation_configs" ("tenant_id");
-- reverse: drop index "activationconfig_project_id" from table: "activation_configs"
CREATE INDEX "activationconfig_project_id" ON "activation_configs" ("project_id");
