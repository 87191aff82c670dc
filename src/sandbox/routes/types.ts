import type { Request, Response } from 'express';
import type { RouteName } from '../../domain/operator-profile';

export type Handler = (req: Request, res: Response) => void | Promise<void>;
export type OperatorHandlers<K extends RouteName = RouteName> = Record<K, Handler>;
