CTE_VALID_EVENTS AS (
  SELECT t0.`event_id` AS `event_id`
  FROM `my-project.analytics.events` AS t0
  WHERE t0.`event_timestamp` >= TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 7 DAY) AND t0.`event_timestamp` <= CURRENT_TIMESTAMP() AND (t0.`event_name` = 'purchase' AND EXISTS (SELECT 1 FROM UNNEST(t0.`items`) AS e1 INNER JOIN `my-project.analytics.product_properties` AS s0 ON s0.`product_id` = e1.`product_id` WHERE (s0.`category` = 'dairy' AND s0.`is_private_label` = TRUE)))
)
