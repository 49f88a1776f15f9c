CTE_VALID_EVENTS AS (
  SELECT t0.`event_id` AS `event_id`
  FROM `my-project.analytics.events` AS t0
  WHERE (EXISTS (SELECT 1 FROM UNNEST(t0.`attributes`) AS r0 WHERE (r0.`key` = @p0 AND r0.`value` IN (@p1, @p2))) AND EXISTS (SELECT 1 FROM UNNEST(t0.`items`) AS r1 WHERE (r1.`quantity` >= @p3 OR r1.`price` > @p4)))
)
