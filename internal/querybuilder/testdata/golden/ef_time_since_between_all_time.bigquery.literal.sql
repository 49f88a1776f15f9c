CTE_VALID_EVENTS AS (
  (
    SELECT t0.`event_id` AS `event_id`
    FROM `my-project.analytics.events` AS t0
    WHERE t0.`event_timestamp` >= TIMESTAMP('2024-06-01T00:00:00Z')
  )
  UNION ALL
  (
    SELECT t0.`event_id` AS `event_id`
    FROM `my-project.analytics.events` AS t0
    WHERE t0.`event_timestamp` BETWEEN TIMESTAMP('2024-01-01T00:00:00Z') AND TIMESTAMP('2024-03-31T23:59:59Z')
  )
  UNION ALL
  (
    SELECT t0.`event_id` AS `event_id`
    FROM `my-project.analytics.events` AS t0
    WHERE t0.`event_name` = 'purchase'
  )
)
