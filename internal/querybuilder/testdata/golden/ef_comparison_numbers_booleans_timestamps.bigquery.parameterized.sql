CTE_VALID_EVENTS AS (
  SELECT t0.`event_id` AS `event_id`
  FROM `my-project.analytics.events` AS t0
  INNER JOIN `my-project.analytics.commerces` AS t1 ON t0.`commerce_id` = t1.`commerce_id`
  WHERE (t0.`quantity` > @p0 AND t0.`quantity` <= @p1 AND t0.`value` >= @p2 AND t0.`value` < @p3 AND t0.`quantity` IN (@p4, @p5, @p6) AND t0.`quantity` NOT IN (@p7) AND t1.`credit_limit` BETWEEN @p8 AND @p9 AND t1.`credit_limit` <> @p10 AND t1.`is_active` = @p11 AND t1.`is_active` <> @p12 AND t1.`created_at` > @p13 AND t0.`event_timestamp` BETWEEN @p14 AND @p15 AND t0.`session_id` IS NULL AND t0.`value` IS NOT NULL)
)
