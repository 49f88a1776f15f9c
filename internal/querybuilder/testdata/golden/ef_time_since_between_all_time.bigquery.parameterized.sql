CTE_VALID_EVENTS AS (
  (
    SELECT t0.`event_id` AS `event_id`
    FROM `my-project.analytics.events` AS t0
    WHERE t0.`event_timestamp` >= @p0
  )
  UNION ALL
  (
    SELECT t0.`event_id` AS `event_id`
    FROM `my-project.analytics.events` AS t0
    WHERE t0.`event_timestamp` BETWEEN @p1 AND @p2
  )
  UNION ALL
  (
    SELECT t0.`event_id` AS `event_id`
    FROM `my-project.analytics.events` AS t0
    WHERE t0.`event_name` = @p3
  )
)
