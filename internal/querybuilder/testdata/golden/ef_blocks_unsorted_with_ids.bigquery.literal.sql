CTE_VALID_EVENTS AS (
  (
    SELECT t0.`event_id` AS `event_id`
    FROM `my-project.analytics.events` AS t0
    WHERE t0.`platform` = 'ios'
  )
  UNION ALL
  (
    SELECT t0.`event_id` AS `event_id`
    FROM `my-project.analytics.events` AS t0
    WHERE t0.`platform` = 'web'
  )
)
