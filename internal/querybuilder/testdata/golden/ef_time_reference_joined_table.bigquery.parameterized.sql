CTE_VALID_EVENTS AS (
  SELECT t0.`event_id` AS `event_id`, t1.`name` AS `commerce_name`
  FROM `my-project.analytics.events` AS t0
  INNER JOIN `my-project.analytics.commerces` AS t1 ON t0.`commerce_id` = t1.`commerce_id`
  WHERE t1.`created_at` >= TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 90 DAY) AND t1.`created_at` <= CURRENT_TIMESTAMP()
)
