CTE_VALID_EVENTS AS (
  (
    SELECT t0.`commerce_id` AS `commerce_id`
    FROM `my-project.analytics.events` AS t0
    INNER JOIN (SELECT `commerce_id` AS subject, MIN(`event_timestamp`) AS origin FROM `my-project.analytics.events` GROUP BY `commerce_id`) AS f0 ON f0.subject = t0.`commerce_id`
    WHERE t0.`event_timestamp` >= f0.origin AND t0.`event_timestamp` < TIMESTAMP_ADD(f0.origin, INTERVAL 14 DAY) AND t0.`event_name` = 'purchase'
  )
  UNION DISTINCT
  (
    SELECT t0.`commerce_id` AS `commerce_id`
    FROM `my-project.analytics.transactions` AS t0
    INNER JOIN (SELECT `commerce_id` AS subject, MIN(`transacted_at`) AS origin FROM `my-project.analytics.transactions` GROUP BY `commerce_id`) AS f1 ON f1.subject = t0.`commerce_id`
    WHERE t0.`transacted_at` >= f1.origin AND t0.`transacted_at` < TIMESTAMP(DATETIME_ADD(DATETIME(f1.origin), INTERVAL 1 YEAR)) AND t0.`status` = 'completed'
  )
)
