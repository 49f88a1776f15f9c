-- +goose Up
-- create "webhook_attempts" table
CREATE TABLE `webhook_attempts` (`id` uuid NOT NULL, `tenant_id` uuid NOT NULL, `number` integer NOT NULL, `attempted_at` datetime NOT NULL, `latency_ms` integer NOT NULL, `status_code` integer NULL, `error` text NULL, `response_body` text NOT NULL DEFAULT (''), `delivery_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `webhook_attempts_webhook_deliveries_delivery` FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries` (`id`) ON DELETE CASCADE);
-- create index "webhookattempt_delivery_id_number" to table: "webhook_attempts"
CREATE INDEX `webhookattempt_delivery_id_number` ON `webhook_attempts` (`delivery_id`, `number`);
-- create "webhook_deliveries" table
CREATE TABLE `webhook_deliveries` (`id` uuid NOT NULL, `tenant_id` uuid NOT NULL, `event_type` text NOT NULL, `status` text NOT NULL DEFAULT ('PENDING'), `attempts` integer NOT NULL DEFAULT (0), `next_attempt_at` datetime NOT NULL, `last_attempt_at` datetime NULL, `last_status_code` integer NULL, `last_error` text NULL, `replay_of` uuid NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `endpoint_id` uuid NOT NULL, `event_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `webhook_deliveries_webhook_endpoints_endpoint` FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints` (`id`) ON DELETE CASCADE, CONSTRAINT `webhook_deliveries_webhook_events_event` FOREIGN KEY (`event_id`) REFERENCES `webhook_events` (`id`) ON DELETE CASCADE);
-- create index "webhookdelivery_tenant_id_endpoint_id_created_at_id" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_tenant_id_endpoint_id_created_at_id` ON `webhook_deliveries` (`tenant_id`, `endpoint_id`, `created_at`, `id`);
-- create index "webhookdelivery_tenant_id_created_at_id" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_tenant_id_created_at_id` ON `webhook_deliveries` (`tenant_id`, `created_at`, `id`);
-- create index "webhookdelivery_next_attempt_at" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_next_attempt_at` ON `webhook_deliveries` (`next_attempt_at`) WHERE status = 'PENDING';
-- create index "webhookdelivery_event_id" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_event_id` ON `webhook_deliveries` (`event_id`);
-- create "webhook_endpoints" table
CREATE TABLE `webhook_endpoints` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `url` text NOT NULL, `description` text NOT NULL DEFAULT (''), `event_types` json NOT NULL, `is_active` bool NOT NULL DEFAULT (true), `secret_encrypted` blob NOT NULL, `previous_secret_encrypted` blob NULL, `previous_secret_expires_at` datetime NULL, `failure_count` integer NOT NULL DEFAULT (0), `failing_since` datetime NULL, `disabled_at` datetime NULL, `disabled_reason` text NULL, `created_by` uuid NULL, `tenant_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `webhook_endpoints_tenants_tenant` FOREIGN KEY (`tenant_id`) REFERENCES `tenants` (`id`) ON DELETE NO ACTION);
-- create index "webhookendpoint_tenant_id" to table: "webhook_endpoints"
CREATE INDEX `webhookendpoint_tenant_id` ON `webhook_endpoints` (`tenant_id`);
-- create index "webhookendpoint_tenant_id_created_at_id" to table: "webhook_endpoints"
CREATE INDEX `webhookendpoint_tenant_id_created_at_id` ON `webhook_endpoints` (`tenant_id`, `created_at`, `id`);
-- create "webhook_events" table
CREATE TABLE `webhook_events` (`id` uuid NOT NULL, `tenant_id` uuid NOT NULL, `type` text NOT NULL, `payload` text NOT NULL, `created_at` datetime NOT NULL, PRIMARY KEY (`id`));
-- create index "webhookevent_created_at_id" to table: "webhook_events"
CREATE INDEX `webhookevent_created_at_id` ON `webhook_events` (`created_at`, `id`);

-- +goose Down
-- reverse: create index "webhookevent_created_at_id" to table: "webhook_events"
DROP INDEX `webhookevent_created_at_id`;
-- reverse: create "webhook_events" table
DROP TABLE `webhook_events`;
-- reverse: create index "webhookendpoint_tenant_id_created_at_id" to table: "webhook_endpoints"
DROP INDEX `webhookendpoint_tenant_id_created_at_id`;
-- reverse: create index "webhookendpoint_tenant_id" to table: "webhook_endpoints"
DROP INDEX `webhookendpoint_tenant_id`;
-- reverse: create "webhook_endpoints" table
DROP TABLE `webhook_endpoints`;
-- reverse: create index "webhookdelivery_event_id" to table: "webhook_deliveries"
DROP INDEX `webhookdelivery_event_id`;
-- reverse: create index "webhookdelivery_next_attempt_at" to table: "webhook_deliveries"
DROP INDEX `webhookdelivery_next_attempt_at`;
-- reverse: create index "webhookdelivery_tenant_id_created_at_id" to table: "webhook_deliveries"
DROP INDEX `webhookdelivery_tenant_id_created_at_id`;
-- reverse: create index "webhookdelivery_tenant_id_endpoint_id_created_at_id" to table: "webhook_deliveries"
DROP INDEX `webhookdelivery_tenant_id_endpoint_id_created_at_id`;
-- reverse: create "webhook_deliveries" table
DROP TABLE `webhook_deliveries`;
-- reverse: create index "webhookattempt_delivery_id_number" to table: "webhook_attempts"
DROP INDEX `webhookattempt_delivery_id_number`;
-- reverse: create "webhook_attempts" table
DROP TABLE `webhook_attempts`;
