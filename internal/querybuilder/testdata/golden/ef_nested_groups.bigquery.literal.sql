CTE_VALID_EVENTS AS (
  SELECT t0.`event_id` AS `event_id`
  FROM `my-project.analytics.events` AS t0
  WHERE ((t0.`event_name` = 'purchase' AND t0.`value` > 100.0) OR (t0.`event_name` = 'add_to_cart' AND (t0.`platform` = 'ios' OR t0.`platform` = 'android')) OR t0.`event_name` = 'app_open')
)
