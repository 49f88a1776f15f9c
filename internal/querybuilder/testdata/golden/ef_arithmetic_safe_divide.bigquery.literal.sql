CTE_VALID_EVENTS AS (
  SELECT t0.`commerce_id` AS `commerce_id`, SUM((t0.`quantity` * 2)) AS `double_units`, AVG(SAFE_DIVIDE(t0.`value`, t0.`quantity`)) AS `unit_value`, MAX(SAFE_DIVIDE(t0.`quantity`, (t0.`quantity` - 1))) AS `ratio`, SUM(((t0.`value` * 0.5) + (-3))) AS `adjusted`
  FROM `my-project.analytics.events` AS t0
  GROUP BY t0.`commerce_id`
  HAVING AVG(SAFE_DIVIDE(t0.`value`, t0.`quantity`)) > 1.25
)
