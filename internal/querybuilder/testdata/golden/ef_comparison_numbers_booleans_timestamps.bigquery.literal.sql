CTE_VALID_EVENTS AS (
  SELECT t0.`event_id` AS `event_id`
  FROM `my-project.analytics.events` AS t0
  INNER JOIN `my-project.analytics.commerces` AS t1 ON t0.`commerce_id` = t1.`commerce_id`
  WHERE (t0.`quantity` > 2 AND t0.`quantity` <= 100 AND t0.`value` >= 10.5 AND t0.`value` < (-1000.0) AND t0.`quantity` IN (1, 2, 3) AND t0.`quantity` NOT IN (7) AND t1.`credit_limit` BETWEEN NUMERIC '1000' AND NUMERIC '2500.75' AND t1.`credit_limit` <> NUMERIC '0.1' AND t1.`is_active` = TRUE AND t1.`is_active` <> FALSE AND t1.`created_at` > TIMESTAMP('2024-01-31T13:00:00Z') AND t0.`event_timestamp` BETWEEN TIMESTAMP('2024-01-01T00:00:00Z') AND TIMESTAMP('2024-12-31T23:59:59.999999Z') AND t0.`session_id` IS NULL AND t0.`value` IS NOT NULL)
)
