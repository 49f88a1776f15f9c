-- +goose Up
-- drop index "generationrule_tenant_id_activi_c69fe659e14e52286bc57485fd0c67b2" from table: "generation_rules"
DROP INDEX `generationrule_tenant_id_activi_c69fe659e14e52286bc57485fd0c67b2`;
-- create index "generationrule_tenant_id_activi_d6a5163abbd67b748017d1af461260d3" to table: "generation_rules"
CREATE INDEX `generationrule_tenant_id_activi_d6a5163abbd67b748017d1af461260d3` ON `generation_rules` (`tenant_id`, `activity_generation_config_id`, `priority`, `id`) WHERE archived_at IS NULL;

-- +goose Down
-- reverse: create index "generationrule_tenant_id_activi_d6a5163abbd67b748017d1af461260d3" to table: "generation_rules"
DROP INDEX `generationrule_tenant_id_activi_d6a5163abbd67b748017d1af461260d3`;
-- reverse: drop index "generationrule_tenant_id_activi_c69fe659e14e52286bc57485fd0c67b2" from table: "generation_rules"
CREATE INDEX `generationrule_tenant_id_activi_c69fe659e14e52286bc57485fd0c67b2` ON `generation_rules` (`tenant_id`, `activity_generation_config_id`, `priority`, `name`, `id`) WHERE archived_at IS NULL;
