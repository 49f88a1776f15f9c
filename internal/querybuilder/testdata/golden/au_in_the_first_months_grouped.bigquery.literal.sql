CTE_VALID_EVENTS AS (
  SELECT t0.`commerce_id` AS `commerce`, COUNT(*) AS `purchases`
  FROM `my-project.analytics.events` AS t0
  INNER JOIN (SELECT `commerce_id` AS subject, MIN(`event_timestamp`) AS origin FROM `my-project.analytics.events` GROUP BY `commerce_id`) AS f0 ON f0.subject = t0.`commerce_id`
  WHERE t0.`event_timestamp` >= f0.origin AND t0.`event_timestamp` < TIMESTAMP(DATETIME_ADD(DATETIME(f0.origin), INTERVAL 2 MONTH)) AND t0.`event_name` = 'purchase'
  GROUP BY t0.`commerce_id`
  HAVING COUNT(*) >= 2
)
