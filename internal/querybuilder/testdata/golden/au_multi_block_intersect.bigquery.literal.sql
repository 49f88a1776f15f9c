CTE_VALID_EVENTS AS (
  (
    SELECT t0.`commerce_id` AS `commerce_id`
    FROM `my-project.analytics.events` AS t0
    WHERE t0.`event_timestamp` >= TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 30 DAY) AND t0.`event_timestamp` <= CURRENT_TIMESTAMP() AND t0.`event_name` = 'purchase'
  )
  INTERSECT DISTINCT
  (
    SELECT t0.`commerce_id` AS `commerce_id`
    FROM `my-project.analytics.transactions` AS t0
    WHERE t0.`transacted_at` >= TIMESTAMP(DATETIME_SUB(DATETIME(CURRENT_TIMESTAMP()), INTERVAL 1 YEAR)) AND t0.`transacted_at` <= CURRENT_TIMESTAMP() AND t0.`amount` > NUMERIC '500'
  )
)
