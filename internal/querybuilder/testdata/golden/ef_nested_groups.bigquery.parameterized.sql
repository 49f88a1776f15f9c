CTE_VALID_EVENTS AS (
  SELECT t0.`event_id` AS `event_id`
  FROM `my-project.analytics.events` AS t0
  WHERE ((t0.`event_name` = @p0 AND t0.`value` > @p1) OR (t0.`event_name` = @p2 AND (t0.`platform` = @p3 OR t0.`platform` = @p4)) OR t0.`event_name` = @p5)
)
