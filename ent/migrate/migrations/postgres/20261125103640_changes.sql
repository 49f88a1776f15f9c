-- +goose Up
-- create "commerce_routes" table
CREATE TABLE "commerce_routes" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "tenant_id" uuid NOT NULL, "commerce_id" uuid NOT NULL, "route_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "commerce_routes_commerces_commerce" FOREIGN KEY ("commerce_id") REFERENCES "commerces" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "commerce_routes_routes_route" FOREIGN KEY ("route_id") REFERENCES "routes" ("id") ON UPDATE NO ACTION ON DELETE CASCADE, CONSTRAINT "commerce_routes_tenants_tenant" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON UPDATE NO ACTION ON DELETE NO ACTION);
-- create index "commerceroute_commerce_id_route_id" to table: "commerce_routes"
CREATE UNIQUE INDEX "commerceroute_commerce_id_route_id" ON "commerce_routes" ("commerce_id", "route_id");
-- create index "commerceroute_route_id_commerce_id" to table: "commerce_routes"
CREATE INDEX "commerceroute_route_id_commerce_id" ON "commerce_routes" ("route_id", "commerce_id");
-- create index "commerceroute_tenant_id" to table: "commerce_routes"
CREATE INDEX "commerceroute_tenant_id" ON "commerce_routes" ("tenant_id");

-- +goose Down
-- reverse: create index "commerceroute_tenant_id" to table: "commerce_routes"
DROP INDEX "commerceroute_tenant_id";
-- reverse: create index "commerceroute_route_id_commerce_id" to table: "commerce_routes"
DROP INDEX "commerceroute_route_id_commerce_id";
-- reverse: create index "commerceroute_commerce_id_route_id" to table: "commerce_routes"
DROP INDEX "commerceroute_commerce_id_route_id";
-- reverse: create "commerce_routes" table
DROP TABLE "commerce_routes";
