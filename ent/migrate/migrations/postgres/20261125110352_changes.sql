-- +goose Up
-- create "generation_rules" table
CREATE TABLE "generation_rules" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "archived_at" timestamptz NULL, "name" character varying NOT NULL, "trigger" character varying NOT NULL, "stage" character varying NOT NULL, "status_code" character varying NOT NULL, "dwell_days" bigint NULL, "type" character varying NOT NULL, "channel" character varying NOT NULL, "reason_code" character varying NOT NULL, "title_template" text NOT NULL, "instructions_template" text NOT NULL DEFAULT '', "attributes" jsonb NULL, "offset_days" bigint NOT NULL DEFAULT 0, "time_of_day" character varying NOT NULL DEFAULT '09:00', "skip_weekends" boolean NOT NULL DEFAULT false, "expires_after_days" bigint NULL, "assignment" character varying NULL, "operator_type" character varying NULL, "target_role" character varying NULL, "is_active" boolean NOT NULL DEFAULT true, "priority" bigint NOT NULL DEFAULT 100, "tenant_id" uuid NOT NULL, "project_id" uuid NOT NULL, "activity_generation_config_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "generation_rules_activity_gene_ec7330737633f9fab1930cc1554ff07e" FOREIGN KEY ("activity_generation_config_id") REFERENCES "activity_generation_configs" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "generation_rules_projects_project" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION, CONSTRAINT "generation_rules_tenants_tenant" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- create index "generationrule_activity_generation_config_id_name" to table: "generation_rules"
CREATE UNIQUE INDEX "generationrule_activity_generation_config_id_name" ON "generation_rules" ("activity_generation_config_id", "name") WHERE (archived_at IS NULL);
-- create index "generationrule_project_id" to table: "generation_rules"
CREATE INDEX "generationrule_project_id" ON "generation_rules" ("project_id");
-- create index "generationrule_tenant_id" to table: "generation_rules"
CREATE INDEX "generationrule_tenant_id" ON "generation_rules" ("tenant_id");
-- create index "generationrule_tenant_id_activ_9604c006f1dce5e8d60268682d13d2da" to table: "generation_rules"
CREATE INDEX "generationrule_tenant_id_activ_9604c006f1dce5e8d60268682d13d2da" ON "generation_rules" ("tenant_id", "activity_generation_config_id", "priority", "name", "id") WHERE (archived_at IS NULL);

-- +goose Down
-- reverse: create index "generationrule_tenant_id_activ_9604c006f1dce5e8d60268682d13d2da" to table: "generation_rules"
DROP INDEX "generationrule_tenant_id_activ_9604c006f1dce5e8d60268682d13d2da";
-- reverse: create index "generationrule_tenant_id" to table: "generation_rules"
DROP INDEX "generationrule_tenant_id";
-- reverse: create index "generationrule_project_id" to table: "generation_rules"
DROP INDEX "generationrule_project_id";
-- reverse: create index "generationrule_activity_generation_config_id_name" to table: "generation_rules"
DROP INDEX "generationrule_activity_generation_config_id_name";
-- reverse: create "generation_rules" table
DROP TABLE "generation_rules";
