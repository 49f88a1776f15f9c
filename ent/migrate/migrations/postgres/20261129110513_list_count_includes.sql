-- +goose Up
-- drop index "activitygenerationconfig_project_id_name" from table: "activity_generation_configs"
DROP INDEX "activitygenerationconfig_project_id_name";
-- create index "activitygenerationconfig_project_id_name" to table: "activity_generation_configs"
CREATE UNIQUE INDEX "activitygenerationconfig_project_id_name" ON "activity_generation_configs" ("project_id", "name") INCLUDE ("tenant_id", "id") WHERE (archived_at IS NULL);
-- drop index "activityreasonconfig_tenant_id_code" from table: "activity_reason_configs"
DROP INDEX "activityreasonconfig_tenant_id_code";
-- create index "activityreasonconfig_tenant_id_code" to table: "activity_reason_configs"
CREATE UNIQUE INDEX "activityreasonconfig_tenant_id_code" ON "activity_reason_configs" ("tenant_id", "code") INCLUDE ("id");
-- drop index "project_tenant_id_name_key" from table: "projects"
DROP INDEX "project_tenant_id_name_key";
-- create index "project_tenant_id_name_key" to table: "projects"
CREATE UNIQUE INDEX "project_tenant_id_name_key" ON "projects" ("tenant_id", "name_key") INCLUDE ("id");
-- drop index "retentionstatusconfig_tenant_id_code" from table: "retention_status_configs"
DROP INDEX "retentionstatusconfig_tenant_id_code";
-- create index "retentionstatusconfig_tenant_id_code" to table: "retention_status_configs"
CREATE UNIQUE INDEX "retentionstatusconfig_tenant_id_code" ON "retention_status_configs" ("tenant_id", "code") INCLUDE ("id");

-- +goose Down
-- reverse: create index "retentionstatusconfig_tenant_id_code" to table: "retention_status_configs"
DROP INDEX "retentionstatusconfig_tenant_id_code";
-- reverse: drop index "retentionstatusconfig_tenant_id_code" from table: "retention_status_configs"
CREATE UNIQUE INDEX "retentionstatusconfig_tenant_id_code" ON "retention_status_configs" ("tenant_id", "code");
-- reverse: create index "project_tenant_id_name_key" to table: "projects"
DROP INDEX "project_tenant_id_name_key";
-- reverse: drop index "project_tenant_id_name_key" from table: "projects"
CREATE UNIQUE INDEX "project_tenant_id_name_key" ON "projects" ("tenant_id", "name_key");
-- reverse: create index "activityreasonconfig_tenant_id_code" to table: "activity_reason_configs"
DROP INDEX "activityreasonconfig_tenant_id_code";
-- reverse: drop index "activityreasonconfig_tenant_id_code" from table: "activity_reason_configs"
CREATE UNIQUE INDEX "activityreasonconfig_tenant_id_code" ON "activity_reason_configs" ("tenant_id", "code");
-- reverse: create index "activitygenerationconfig_project_id_name" to table: "activity_generation_configs"
DROP INDEX "activitygenerationconfig_project_id_name";
-- reverse: drop index "activitygenerationconfig_project_id_name" from table: "activity_generation_configs"
CREATE UNIQUE INDEX "activitygenerationconfig_project_id_name" ON "activity_generation_configs" ("project_id", "name") WHERE (archived_at IS NULL);
