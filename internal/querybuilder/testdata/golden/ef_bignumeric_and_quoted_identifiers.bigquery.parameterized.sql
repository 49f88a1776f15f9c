CTE_VALID_EVENTS AS (
  SELECT t0.`entry_id` AS `entry_id`, t0.`odd\`name"col` AS `odd\`name"col`
  FROM `ledger` AS t0
  WHERE t0.`booked_at` >= @p0 AND (t0.`balance` > @p1 AND t0.`balance` IN (@p2, @p3, @p4) AND t0.`odd\`name"col` IS NOT NULL)
)
