CTE_VALID_EVENTS AS (
  (
    (
      (
        SELECT t0.`event_id` AS `event_id`
        FROM `my-project.analytics.events` AS t0
        WHERE t0.`event_name` = 'purchase'
      )
      UNION DISTINCT
      (
        SELECT t0.`event_id` AS `event_id`
        FROM `my-project.analytics.events` AS t0
        WHERE t0.`event_name` = 'add_to_cart'
      )
      UNION DISTINCT
      (
        SELECT t0.`event_id` AS `event_id`
        FROM `my-project.analytics.events` AS t0
        WHERE t0.`event_name` = 'view_item'
      )
    )
    INTERSECT DISTINCT
    (
      SELECT t0.`event_id` AS `event_id`
      FROM `my-project.analytics.events` AS t0
      WHERE t0.`platform` = 'ios'
    )
  )
  UNION ALL
  (
    SELECT t0.`event_id` AS `event_id`
    FROM `my-project.analytics.events` AS t0
    WHERE t0.`event_name` = 'order_canceled'
  )
)
