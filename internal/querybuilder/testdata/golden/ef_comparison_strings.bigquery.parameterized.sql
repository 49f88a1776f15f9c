CTE_VALID_EVENTS AS (
  SELECT t0.`event_id` AS `event_id`
  FROM `my-project.analytics.events` AS t0
  WHERE (t0.`event_name` = @p0 AND t0.`platform` <> @p1 AND STRPOS(t0.`session_id`, @p2) > 0 AND STRPOS(t0.`session_id`, @p3) = 0 AND STARTS_WITH(t0.`event_id`, @p4) AND ENDS_WITH(t0.`event_id`, @p5) AND t0.`platform` IN (@p6, @p7) AND t0.`platform` NOT IN (@p8) AND t0.`event_name` > @p9 AND t0.`event_name` BETWEEN @p10 AND @p11)
)
