CTE_VALID_EVENTS AS (
  SELECT t0.`commerce_id` AS `commerce_id`, t0.`event_name` AS `event_name`, COUNT(*) AS `events`, SUM(t0.`value`) AS `total_value`, AVG(t0.`quantity`) AS `avg_quantity`, MIN(t0.`event_timestamp`) AS `first_seen`, MAX(t0.`event_timestamp`) AS `last_seen`, COUNT(t0.`session_id`) AS `sessions`
  FROM `my-project.analytics.events` AS t0
  WHERE t0.`event_timestamp` >= TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 30 DAY) AND t0.`event_timestamp` <= CURRENT_TIMESTAMP()
  GROUP BY t0.`commerce_id`, t0.`event_name`
  HAVING (COUNT(*) >= 3 AND MAX(t0.`value`) > 50.0 AND MAX(t0.`event_timestamp`) > TIMESTAMP('2024-01-01T00:00:00Z'))
)
