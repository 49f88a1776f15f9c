-- +goose Up
-- drop index "activity_project_id_commerce_id" from table: "activities"
DROP INDEX "activity_project_id_commerce_id";
-- drop index "activity_project_id_scheduled_at" from table: "activities"
DROP INDEX "activity_project_id_scheduled_at";
-- drop index "activity_project_id_status_scheduled_at" from table: "activities"
DROP INDEX "activity_project_id_status_scheduled_at";
-- create index "activity_tenant_id_project_id_channel_scheduled_at_id" to table: "activities"
CREATE INDEX "activity_tenant_id_project_id_channel_scheduled_at_id" ON "activities" ("tenant_id", "project_id", "channel", "scheduled_at", "id");
-- create index "activity_tenant_id_project_id_commerce_id_scheduled_at_id" to table: "activities"
CREATE INDEX "activity_tenant_id_project_id_commerce_id_scheduled_at_id" ON "activities" ("tenant_id", "project_id", "commerce_id", "scheduled_at", "id");
-- create index "activity_tenant_id_project_id_scheduled_at_id_title_commerce_id" to table: "activities"
CREATE INDEX "activity_tenant_id_project_id_scheduled_at_id_title_commerce_id" ON "activities" ("tenant_id", "project_id", "scheduled_at", "id", "title", "commerce_id");
-- create index "activity_tenant_id_project_id_status_scheduled_at_id" to table: "activities"
CREATE INDEX "activity_tenant_id_project_id_status_scheduled_at_id" ON "activities" ("tenant_id", "project_id", "status", "scheduled_at", "id");
-- create index "activity_tenant_id_project_id_type_scheduled_at_id" to table: "activities"
CREATE INDEX "activity_tenant_id_project_id_type_scheduled_at_id" ON "activities" ("tenant_id", "project_id", "type", "scheduled_at", "id");
-- create index "activity_tenant_id_type_scheduled_at_id" to table: "activities"
CREATE INDEX "activity_tenant_id_type_scheduled_at_id" ON "activities" ("tenant_id", "type", "scheduled_at", "id");
-- drop index "apikey_tenant_id_user_id" from table: "api_keys"
DROP INDEX "apikey_tenant_id_user_id";
-- create index "apikey_tenant_id_user_id_created_at_id" to table: "api_keys"
CREATE INDEX "apikey_tenant_id_user_id_created_at_id" ON "api_keys" ("tenant_id", "user_id", "created_at", "id");
-- create index "audience_tenant_id_project_id_is_root_created_at_id" to table: "audiences"
CREATE INDEX "audience_tenant_id_project_id_is_root_created_at_id" ON "audiences" ("tenant_id", "project_id", "is_root", "created_at", "id") WHERE (archived_at IS NULL);
-- create index "channeldefinition_tenant_id_provider_id_name_id" to table: "channel_definitions"
CREATE INDEX "channeldefinition_tenant_id_provider_id_name_id" ON "channel_definitions" ("tenant_id", "provider_id", "name", "id");
-- create index "commerceaddress_tenant_id_commerce_id_created_at_id" to table: "commerce_addresses"
CREATE INDEX "commerceaddress_tenant_id_commerce_id_created_at_id" ON "commerce_addresses" ("tenant_id", "commerce_id", "created_at", "id");
-- create index "commerceuser_tenant_id_commerce_id_created_at_id" to table: "commerce_users"
CREATE INDEX "commerceuser_tenant_id_commerce_id_created_at_id" ON "commerce_users" ("tenant_id", "commerce_id", "created_at", "id");
-- drop index "commerce_tenant_id_name" from table: "commerces"
DROP INDEX "commerce_tenant_id_name";
-- create index "commerce_tenant_id_is_active_name_id" to table: "commerces"
CREATE INDEX "commerce_tenant_id_is_active_name_id" ON "commerces" ("tenant_id", "is_active", "name", "id") WHERE (archived_at IS NULL);
-- create index "commerce_tenant_id_name_id_external_id" to table: "commerces"
CREATE INDEX "commerce_tenant_id_name_id_external_id" ON "commerces" ("tenant_id", "name", "id", "external_id") WHERE (archived_at IS NULL);
-- create index "dispatchconfig_tenant_id_project_id_channel_id" to table: "dispatch_configs"
CREATE INDEX "dispatchconfig_tenant_id_project_id_channel_id" ON "dispatch_configs" ("tenant_id", "project_id", "channel", "id");
-- create index "dispatchprovider_tenant_id_channel_name_id" to table: "dispatch_providers"
CREATE INDEX "dispatchprovider_tenant_id_channel_name_id" ON "dispatch_providers" ("tenant_id", "channel", "name", "id");
-- create index "dispatchprovider_tenant_id_name_id" to table: "dispatch_providers"
CREATE INDEX "dispatchprovider_tenant_id_name_id" ON "dispatch_providers" ("tenant_id", "name", "id");
-- create index "eventfilter_tenant_id_project_id_created_at_id" to table: "event_filters"
CREATE INDEX "eventfilter_tenant_id_project_id_created_at_id" ON "event_filters" ("tenant_id", "project_id", "created_at", "id") WHERE (archived_at IS NULL);
-- create index "operator_tenant_id_is_active_name_id" to table: "operators"
CREATE INDEX "operator_tenant_id_is_active_name_id" ON "operators" ("tenant_id", "is_active", "name", "id") WHERE (archived_at IS NULL);
-- create index "operator_tenant_id_name_id" to table: "operators"
CREATE INDEX "operator_tenant_id_name_id" ON "operators" ("tenant_id", "name", "id") WHERE (archived_at IS NULL);
-- create index "operator_tenant_id_type_name_id" to table: "operators"
CREATE INDEX "operator_tenant_id_type_name_id" ON "operators" ("tenant_id", "type", "name", "id") WHERE (archived_at IS NULL);
-- create index "route_tenant_id_code_id" to table: "routes"
CREATE INDEX "route_tenant_id_code_id" ON "routes" ("tenant_id", "code", "id") WHERE (archived_at IS NULL);
-- create index "route_tenant_id_is_active_code_id" to table: "routes"
CREATE INDEX "route_tenant_id_is_active_code_id" ON "routes" ("tenant_id", "is_active", "code", "id") WHERE (archived_at IS NULL);
-- create index "supervisor_tenant_id_is_active_name_id" to table: "supervisors"
CREATE INDEX "supervisor_tenant_id_is_active_name_id" ON "supervisors" ("tenant_id", "is_active", "name", "id") WHERE (archived_at IS NULL);
-- create index "supervisor_tenant_id_name_id" to table: "supervisors"
CREATE INDEX "supervisor_tenant_id_name_id" ON "supervisors" ("tenant_id", "name", "id") WHERE (archived_at IS NULL);
-- drop index "trashrecord_tenant_id_deleted_at" from table: "trash_records"
DROP INDEX "trashrecord_tenant_id_deleted_at";
-- create index "trashrecord_tenant_id_deleted_at_id" to table: "trash_records"
CREATE INDEX "trashrecord_tenant_id_deleted_at_id" ON "trash_records" ("tenant_id", "deleted_at", "id");
-- create index "trashrecord_tenant_id_kind_deleted_at_id" to table: "trash_records"
CREATE INDEX "trashrecord_tenant_id_kind_deleted_at_id" ON "trash_records" ("tenant_id", "kind", "deleted_at", "id");

-- +goose Down
-- reverse: create index "trashrecord_tenant_id_kind_deleted_at_id" to table: "trash_records"
DROP INDEX "trashrecord_tenant_id_kind_deleted_at_id";
-- reverse: create index "trashrecord_tenant_id_deleted_at_id" to table: "trash_records"
DROP INDEX "trashrecord_tenant_id_deleted_at_id";
-- reverse: drop index "trashrecord_tenant_id_deleted_at" from table: "trash_records"
CREATE INDEX "trashrecord_tenant_id_deleted_at" ON "trash_records" ("tenant_id", "deleted_at");
-- reverse: create index "supervisor_tenant_id_name_id" to table: "supervisors"
DROP INDEX "supervisor_tenant_id_name_id";
-- reverse: create index "supervisor_tenant_id_is_active_name_id" to table: "supervisors"
DROP INDEX "supervisor_tenant_id_is_active_name_id";
-- reverse: create index "route_tenant_id_is_active_code_id" to table: "routes"
DROP INDEX "route_tenant_id_is_active_code_id";
-- reverse: create index "route_tenant_id_code_id" to table: "routes"
DROP INDEX "route_tenant_id_code_id";
-- reverse: create index "operator_tenant_id_type_name_id" to table: "operators"
DROP INDEX "operator_tenant_id_type_name_id";
-- reverse: create index "operator_tenant_id_name_id" to table: "operators"
DROP INDEX "operator_tenant_id_name_id";
-- reverse: create index "operator_tenant_id_is_active_name_id" to table: "operators"
DROP INDEX "operator_tenant_id_is_active_name_id";
-- reverse: create index "eventfilter_tenant_id_project_id_created_at_id" to table: "event_filters"
DROP INDEX "eventfilter_tenant_id_project_id_created_at_id";
-- reverse: create index "dispatchprovider_tenant_id_name_id" to table: "dispatch_providers"
DROP INDEX "dispatchprovider_tenant_id_name_id";
-- reverse: create index "dispatchprovider_tenant_id_channel_name_id" to table: "dispatch_providers"
DROP INDEX "dispatchprovider_tenant_id_channel_name_id";
-- reverse: create index "dispatchconfig_tenant_id_project_id_channel_id" to table: "dispatch_configs"
DROP INDEX "dispatchconfig_tenant_id_project_id_channel_id";
-- reverse: create index "commerce_tenant_id_name_id_external_id" to table: "commerces"
DROP INDEX "commerce_tenant_id_name_id_external_id";
-- reverse: create index "commerce_tenant_id_is_active_name_id" to table: "commerces"
DROP INDEX "commerce_tenant_id_is_active_name_id";
-- reverse: drop index "commerce_tenant_id_name" from table: "commerces"
CREATE INDEX "commerce_tenant_id_name" ON "commerces" ("tenant_id", "name");
-- reverse: create index "commerceuser_tenant_id_commerce_id_created_at_id" to table: "commerce_users"
DROP INDEX "commerceuser_tenant_id_commerce_id_created_at_id";
-- reverse: create index "commerceaddress_tenant_id_commerce_id_created_at_id" to table: "commerce_addresses"
DROP INDEX "commerceaddress_tenant_id_commerce_id_created_at_id";
-- reverse: create index "channeldefinition_tenant_id_provider_id_name_id" to table: "channel_definitions"
DROP INDEX "channeldefinition_tenant_id_provider_id_name_id";
-- reverse: create index "audience_tenant_id_project_id_is_root_created_at_id" to table: "audiences"
DROP INDEX "audience_tenant_id_project_id_is_root_created_at_id";
-- reverse: create index "apikey_tenant_id_user_id_created_at_id" to table: "api_keys"
DROP INDEX "apikey_tenant_id_user_id_created_at_id";
-- reverse: drop index "apikey_tenant_id_user_id" from table: "api_keys"
CREATE INDEX "apikey_tenant_id_user_id" ON "api_keys" ("tenant_id", "user_id");
-- reverse: create index "activity_tenant_id_type_scheduled_at_id" to table: "activities"
DROP INDEX "activity_tenant_id_type_scheduled_at_id";
-- reverse: create index "activity_tenant_id_project_id_type_scheduled_at_id" to table: "activities"
DROP INDEX "activity_tenant_id_project_id_type_scheduled_at_id";
-- reverse: create index "activity_tenant_id_project_id_status_scheduled_at_id" to table: "activities"
DROP INDEX "activity_tenant_id_project_id_status_scheduled_at_id";
-- reverse: create index "activity_tenant_id_project_id_scheduled_at_id_title_commerce_id" to table: "activities"
DROP INDEX "activity_tenant_id_project_id_scheduled_at_id_title_commerce_id";
-- reverse: create index "activity_tenant_id_project_id_commerce_id_scheduled_at_id" to table: "activities"
DROP INDEX "activity_tenant_id_project_id_commerce_id_scheduled_at_id";
-- reverse: create index "activity_tenant_id_project_id_channel_scheduled_at_id" to table: "activities"
DROP INDEX "activity_tenant_id_project_id_channel_scheduled_at_id";
-- reverse: drop index "activity_project_id_status_scheduled_at" from table: "activities"
CREATE INDEX "activity_project_id_status_scheduled_at" ON "activities" ("project_id", "status", "scheduled_at");
-- reverse: drop index "activity_project_id_scheduled_at" from table: "activities"
CREATE INDEX "activity_project_id_scheduled_at" ON "activities" ("project_id", "scheduled_at");
-- reverse: drop index "activity_project_id_commerce_id" from table: "activities"
CREATE INDEX "activity_project_id_commerce_id" ON "activities" ("project_id", "commerce_id");
