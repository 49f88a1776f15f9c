CTE_VALID_EVENTS AS (
  SELECT t0.`commerce_id` AS `commerce_id`, u0.`product_id` AS `product_id`, SUM(u0.`quantity`) AS `units`
  FROM `my-project.analytics.events` AS t0
  CROSS JOIN UNNEST(t0.`items`) AS u0
  WHERE u0.`price` > 1.5
  GROUP BY t0.`commerce_id`, u0.`product_id`
  HAVING SUM(u0.`quantity`) > 10
)
