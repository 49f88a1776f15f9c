CTE_VALID_EVENTS AS (
  (
    (
      (
        SELECT t0.`event_id` AS `event_id`
        FROM `my-project.analytics.events` AS t0
        WHERE t0.`event_name` = @p0
      )
      UNION DISTINCT
      (
        SELECT t0.`event_id` AS `event_id`
        FROM `my-project.analytics.events` AS t0
        WHERE t0.`event_name` = @p1
      )
      UNION DISTINCT
      (
        SELECT t0.`event_id` AS `event_id`
        FROM `my-project.analytics.events` AS t0
        WHERE t0.`event_name` = @p2
      )
    )
    INTERSECT DISTINCT
    (
      SELECT t0.`event_id` AS `event_id`
      FROM `my-project.analytics.events` AS t0
      WHERE t0.`platform` = @p3
    )
  )
  UNION ALL
  (
    SELECT t0.`event_id` AS `event_id`
    FROM `my-project.analytics.events` AS t0
    WHERE t0.`event_name` = @p4
  )
)
