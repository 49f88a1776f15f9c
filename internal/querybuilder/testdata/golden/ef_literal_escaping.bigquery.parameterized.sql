CTE_VALID_EVENTS AS (
  SELECT t0.`event_id` AS `event_id`
  FROM `my-project.analytics.events` AS t0
  WHERE (t0.`event_name` = @p0 OR t0.`event_name` = @p1 OR t0.`event_name` = @p2 OR t0.`event_name` = @p3 OR t0.`event_name` = @p4 OR STRPOS(t0.`event_name`, @p5) > 0)
)
