CTE_VALID_EVENTS AS (
  SELECT DISTINCT t0.`commerce_id` AS `subject`, t0.`platform` AS `platform`, t0.`event_name` AS `what`
  FROM `my-project.analytics.events` AS t0
  WHERE t0.`platform` IS NOT NULL
)
