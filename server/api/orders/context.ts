import { nodeTag } from '../../domain/orders/order-number.ts';
import type { OrderContext } from '../../domain/orders/record-change.ts';
import type { Services } from '../../services.ts';

export const orderContext = (services: Services): OrderContext => ({
  nodeTag: nodeTag(services.config.role),
  fleet: services.deliveryFleet?.name ?? null,
  hooks: services.registry.hooks,
  role: services.config.role,
});
